import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { UnsavedChangesPrompt } from './unsaved-changes-prompt';

/** What SectionForm reads of a TanStack form. */
interface SubmittableForm {
  state: { isDefaultValue: boolean; isSubmitting: boolean };
  handleSubmit: () => Promise<unknown>;
}

/**
 * The form element of a section's add/edit form (docs/sections.md "Forms"): the browser's own checks off (the schema
 * speaks), busy while saving, submitted through TanStack Form, and asking before leaving with unsaved changes.
 */
export function SectionForm(props: {
  form: SubmittableForm;
  formRef: RefObject<HTMLFormElement | null>;
  isSubmitting: boolean;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}) {
  const { form } = props;
  return (
    <form
      ref={props.formRef}
      className={props.className}
      aria-label={props['aria-label']}
      noValidate
      aria-busy={props.isSubmitting || undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void form.handleSubmit();
      }}
    >
      <UnsavedChangesPrompt isChanged={() => !form.state.isDefaultValue && !form.state.isSubmitting} />
      {props.children}
    </form>
  );
}

/** The form's ref, and a way to move the focus to its first invalid control once the messages have rendered. */
export function useFocusFirstInvalid() {
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstInvalid = useCallback(() => {
    setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
  }, []);
  return { formRef, focusFirstInvalid };
}

/** Tells the screen when the form's values start or stop differing from the saved ones (not on every render). */
export function useReportChanged(changed: boolean, report: ((changed: boolean) => void) | undefined) {
  // The parent's callback is a new function each render: kept in a ref so only `changed` triggers the report.
  const reportRef = useRef(report);
  useEffect(() => {
    reportRef.current = report;
  });
  useEffect(() => reportRef.current?.(changed), [changed]);
}
