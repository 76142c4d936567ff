import { useId, type ReactNode } from 'react';

/** What a form control needs to be named, described and marked invalid by its field. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The message to show, or nothing when the field is valid. */
  error?: string | null | undefined;
  /** Renders the control with the ids it must carry. */
  children: (control: FieldControlProps) => ReactNode;
}

/** The control's ids, and its hint and error paragraphs, tied to it with aria-describedby. */
function useFieldParts({ hint, error }: Pick<FieldProps, 'hint' | 'error'>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  const control: FieldControlProps = { id };
  if (describedBy) control['aria-describedby'] = describedBy;
  if (error) control['aria-invalid'] = true;
  const description = (
    <>
      {hint && (
        <p id={hintId} className="form-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </>
  );
  return { control, description };
}

/**
 * One labelled form field: the label, the control, an optional hint, and the error, the hint and error tied to the
 * control with aria-describedby; an error also sets aria-invalid.
 */
export function FormField({ label, hint, error, children }: FieldProps) {
  const { control, description } = useFieldParts({ hint, error });
  return (
    <div className="form-field">
      <label htmlFor={control.id} className="form-label">
        {label}
      </label>
      {children(control)}
      {description}
    </div>
  );
}

/** A checkbox with its label beside it, described like FormField's control. */
export function CheckboxField({ label, hint, error, children }: FieldProps) {
  const { control, description } = useFieldParts({ hint, error });
  return (
    <div className="form-field">
      <div className="checkbox-label">
        {children(control)}
        <label htmlFor={control.id}>{label}</label>
      </div>
      {description}
    </div>
  );
}
