import type { AnyFieldApi } from '@tanstack/react-form';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { shownError } from './form-errors';
import { CheckboxField, FormField } from './form-field';
import { numberText, numberValue } from './form-values';
import { TimeZoneSelect } from './time-zone-select';

/**
 * Section form fields bound to a TanStack Form field, written once (docs/sections.md "Forms"): the label, hint and
 * the message `shownError` picks, with the control's value, change and blur wired to the field. Other props go to the
 * control (autoComplete, type, min/max, rows…).
 */
interface BoundProps {
  field: AnyFieldApi;
  label: ReactNode;
  hint?: ReactNode;
  /** A submit was tried: the schema's messages show on untouched fields too. */
  submitted: boolean;
}

/** What the binding sets itself, so a caller cannot pass it twice. */
type Wired = 'id' | 'name' | 'value' | 'checked' | 'onChange' | 'onBlur' | 'aria-describedby' | 'aria-invalid' | 'children';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, Wired>;

/** An input whose text is the field's value read by `toText`, and whose typing is stored read back by `fromText`. */
function BoundInput({
  field,
  label,
  hint,
  submitted,
  toText,
  fromText,
  ...input
}: BoundProps & InputProps & { toText: (value: never) => string; fromText: (text: string) => unknown }) {
  return (
    <FormField label={label} hint={hint} error={shownError(field.state.meta, submitted)}>
      {(control) => (
        <input
          {...control}
          name={field.name}
          className="input"
          {...input}
          value={toText(field.state.value as never)}
          onChange={(event) => field.handleChange(fromText(event.target.value))}
          onBlur={field.handleBlur}
        />
      )}
    </FormField>
  );
}

const asText = (value: string) => value;

export function TextField(props: BoundProps & InputProps) {
  return <BoundInput {...props} toText={asText} fromText={asText} />;
}

export function TextAreaField({
  field,
  label,
  hint,
  submitted,
  ...input
}: BoundProps & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Wired>) {
  return (
    <FormField label={label} hint={hint} error={shownError(field.state.meta, submitted)}>
      {(control) => (
        <textarea
          {...control}
          className="input"
          {...input}
          value={field.state.value as string}
          onBlur={field.handleBlur}
          onChange={(event) => field.handleChange(event.target.value)}
        />
      )}
    </FormField>
  );
}

/** A whole number; an empty box is NaN in the values, which the schema refuses with its own message. */
export function NumberField(props: BoundProps & InputProps) {
  return <BoundInput type="number" inputMode="numeric" min={0} step={1} {...props} toText={numberText} fromText={numberValue} />;
}

/** One of a fixed list of values, each said with `labelOf`. */
export function SelectField<T extends string>({
  field,
  label,
  hint,
  submitted,
  options,
  labelOf,
  ...select
}: BoundProps & { options: readonly T[]; labelOf: (value: T) => string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, Wired>) {
  return (
    <FormField label={label} hint={hint} error={shownError(field.state.meta, submitted)}>
      {(control) => (
        <select
          {...control}
          name={field.name}
          className="select"
          {...select}
          value={field.state.value as T}
          onChange={(event) => field.handleChange(event.target.value as T)}
          onBlur={field.handleBlur}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labelOf(option)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** A yes/no field: the checkbox with its label beside it. */
export function CheckboxFieldFor({ field, label, hint, submitted }: BoundProps) {
  return (
    <CheckboxField label={label} hint={hint} error={shownError(field.state.meta, submitted)}>
      {(control) => (
        <input
          {...control}
          name={field.name}
          type="checkbox"
          checked={field.state.value as boolean}
          onChange={(event) => field.handleChange(event.target.checked)}
          onBlur={field.handleBlur}
        />
      )}
    </CheckboxField>
  );
}

/** A location's time zone, with the zone its address suggests. */
export function TimeZoneField({ field, label, submitted, address }: Omit<BoundProps, 'hint'> & { address: string }) {
  return (
    <FormField label={label} hint="Times of this location are shown on its clock." error={shownError(field.state.meta, submitted)}>
      {(control) => (
        <TimeZoneSelect
          control={control}
          name={field.name}
          value={field.state.value as string}
          address={address}
          onChange={field.handleChange}
          onBlur={field.handleBlur}
        />
      )}
    </FormField>
  );
}
