import type { AnyFieldApi } from '@tanstack/react-form';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { shownError } from './form-errors';
import { CheckboxField, FormField, type FieldControlProps } from './form-field';
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

/** A TanStack form whose values hold the fields named `TName`, as a block of fields two sections share reads it. */
export interface FormWithFields<TName extends string> {
  // Returns what a React function component may (`Promise` included), as TanStack's Field declares.
  Field: (props: { name: TName; children: (field: AnyFieldApi) => ReactNode }) => ReactNode | Promise<ReactNode>;
}

/** What the binding sets itself, so a caller cannot pass it twice. */
type Wired = 'id' | 'name' | 'value' | 'checked' | 'onChange' | 'onBlur' | 'aria-describedby' | 'aria-invalid' | 'children';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, Wired>;

const asText = (value: string) => value;

/**
 * What ties a control whose value is text (an input, a text area, a select) to the field, beside the ids `control`
 * carries: its text is the field's value read by `toText`, and what is typed or chosen is stored read back by `fromText`.
 */
function textBinding(
  field: AnyFieldApi,
  control: FieldControlProps,
  toText: (value: never) => string = asText,
  fromText: (text: string) => unknown = asText,
) {
  return {
    ...control,
    name: field.name,
    value: toText(field.state.value as never),
    onChange: (event: { target: { value: string } }) => field.handleChange(fromText(event.target.value)),
    onBlur: field.handleBlur,
  };
}

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
      {(control) => <input className="input" {...input} {...textBinding(field, control, toText, fromText)} />}
    </FormField>
  );
}

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
      {(control) => <textarea className="input" {...input} {...textBinding(field, control)} />}
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
        <select className="select" {...select} {...textBinding(field, control)}>
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
