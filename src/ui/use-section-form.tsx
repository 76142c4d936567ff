import { useForm, useStore } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { clearServerError, placeServerErrors } from './form-errors';
import { FormFooter } from './form-footer';
import { validateOnEveryEvent } from './form-validation';
import { SectionForm, useFocusFirstInvalid, useReportChanged } from './section-form';

/** What a screen gives a section's add or edit form, besides its default values and its own (choices, mode). */
export interface SectionFormProps<TInput> {
  submitLabel: string;
  sendingLabel: string;
  /**
   * Saves the parsed values. Rejects to report a failure; may resolve with what to do once the form holds the saved
   * values and no longer counts as changed (navigate away, say).
   */
  onSave: (input: TInput) => Promise<(() => void) | void>;
  /** A failure the screen explains itself (a version conflict): returns true when it has. */
  onSaveFailed?: ((error: unknown) => boolean) | undefined;
  /** The values differ from the saved ones, or no longer do. */
  onChangedChange?: ((changed: boolean) => void) | undefined;
  /** Shown above the buttons (the conflict notice). */
  notice?: ReactNode;
  /** Offer "Discard changes" (back to the saved values) while the values differ from them. */
  allowDiscard?: boolean | undefined;
  /** Offer "Cancel" (the panels that close). */
  onCancel?: (() => void) | undefined;
}

/**
 * A section form set up once (docs/sections.md "Forms"): TanStack Form running the section's one schema on every
 * event (`validateOnEveryEvent`), the focus sent to the first invalid field, a 400's fieldErrors placed at `fields`
 * and cleared when the field changes, anything else said above the buttons, what was typed kept on any failure and,
 * once saved, the saved values counted as unchanged. `fields` are the form's field names (a 400 may name others);
 * `frame` goes to SectionFormFrame.
 */
export function useSectionForm<TValues, TInput>(
  props: SectionFormProps<TInput> & { defaultValues: TValues },
  schema: z.ZodMiniType<TInput, TValues>,
  fields: readonly string[],
) {
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm({
    defaultValues: props.defaultValues,
    validators: { onDynamic: schema },
    validationLogic: validateOnEveryEvent,
    onSubmitInvalid: focusFirstInvalid,
    listeners: clearServerError,
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      let then: (() => void) | void;
      try {
        then = await props.onSave(z.parse(schema, value));
      } catch (error) {
        if (props.onSaveFailed?.(error)) return;
        setFailure(placeServerErrors(formApi, error, fields));
        focusFirstInvalid();
        return;
      }
      // Saved: these values are now the saved ones, so leaving no longer asks.
      formApi.reset(value);
      then?.();
    },
  });

  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const changed = useStore(form.store, (state) => !state.isDefaultValue);
  useReportChanged(changed, props.onChangedChange);
  const frame: SectionFormFrameState = { form, formRef, isSubmitting, changed, failure, props };
  return { form, submitted, frame };
}

/** What SectionFormFrame draws from: the form's state and the screen's props. */
interface SectionFormFrameState {
  form: Parameters<typeof SectionForm>[0]['form'] & { reset: () => void };
  formRef: Parameters<typeof SectionForm>[0]['formRef'];
  isSubmitting: boolean;
  changed: boolean;
  failure: string | null;
  props: SectionFormProps<never>;
}

/** The form element around a section form's fields, then its footer: the failure, the screen's notice, the buttons. */
export function SectionFormFrame({ frame, className, children }: { frame: SectionFormFrameState; className: string; children: ReactNode }) {
  const { form, props } = frame;
  return (
    <SectionForm form={form} formRef={frame.formRef} className={className} isSubmitting={frame.isSubmitting}>
      {children}
      <FormFooter
        failure={frame.failure}
        notice={props.notice}
        isSubmitting={frame.isSubmitting}
        submitLabel={props.submitLabel}
        sendingLabel={props.sendingLabel}
        onDiscard={props.allowDiscard && frame.changed ? () => form.reset() : undefined}
        onCancel={props.onCancel}
      />
    </SectionForm>
  );
}
