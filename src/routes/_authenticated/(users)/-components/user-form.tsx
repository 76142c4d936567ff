import { useForm, useStore } from '@tanstack/react-form';
import { useState, type ReactNode } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf } from '../../../../api/error-data';
import { userInviteSchema, type AssignableRole, type UserInvite } from '../../../../contract/users';
import { TextField } from '../../../../ui/bound-fields';
import { FormField } from '../../../../ui/form-field';
import { SectionForm, useFocusFirstInvalid } from '../../../../ui/section-form';
import { shownError } from '../../../../ui/form-errors';

/** The invite form's values; the edit form has the same without the e-mail (which names the sign-in account). */
export interface UserFormValues {
  email: string;
  display_name: string;
  /** 0 until a role is chosen: the schema refuses it with "Choose a role." */
  role_id: number;
}

const LABELS: Record<keyof UserFormValues, string> = { email: 'E-mail', display_name: 'Name', role_id: 'Role' };

export interface UserFormProps {
  mode: 'invite' | 'edit';
  defaultValues: UserFormValues;
  /** The roles offered: those the editor may give, plus the user's current one (shown even when not theirs to give). */
  roles: readonly AssignableRole[];
  submitLabel: string;
  sendingLabel: string;
  onSave: (values: UserInvite) => Promise<void>;
  /** A failure the screen explains itself (a version conflict): true when it has. */
  onSaveFailed?: (error: unknown) => boolean;
  notice?: ReactNode;
  onCancel: () => void;
}

/**
 * Invite and edit (TanStack Form with the contract's schema): messages at their fields, the server's 400 placed the
 * same way, anything else said above the buttons; what was typed stays on any failure.
 */
export function UserForm(props: UserFormProps) {
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const [failure, setFailure] = useState<string | null>(null);
  // The edit form carries the staff member's e-mail unchanged (not shown), so one schema serves both.
  const schema = userInviteSchema;
  const form = useForm({
    defaultValues: props.defaultValues,
    // On change and on submit only: a blur check would leave its message standing after the field is corrected
    // until the next blur.
    validators: { onChange: schema, onSubmit: schema },
    onSubmitInvalid: focusFirstInvalid,
    listeners: {
      onChange: ({ fieldApi }) => {
        if (!fieldApi.state.meta.errorMap.onServer) return;
        fieldApi.setMeta((meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: undefined } }));
      },
    },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      try {
        await props.onSave(z.parse(schema, value));
      } catch (error) {
        const fieldErrors = Object.entries(fieldErrorsOf(error) ?? {});
        const placed = fieldErrors.filter(([field]) => field in LABELS);
        for (const [field, message] of placed) {
          formApi.setFieldMeta(field as keyof UserFormValues, (meta) => ({
            ...meta,
            errorMap: { ...meta.errorMap, onServer: message },
          }));
        }
        if (placed.length > 0) focusFirstInvalid();
        else if (!props.onSaveFailed?.(error)) setFailure(messageOf(error));
        return;
      }
      formApi.reset(value);
    },
  });
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);

  return (
    <SectionForm form={form} formRef={formRef} className="user-form" isSubmitting={isSubmitting}>
      {props.mode === 'invite' && (
        <form.Field name="email">
          {(field) => (
            <TextField
              field={field}
              label={LABELS.email}
              hint="The set-password link is for this address."
              submitted={submitted}
              type="email"
              autoComplete="off"
            />
          )}
        </form.Field>
      )}
      <form.Field name="display_name">
        {(field) => <TextField field={field} label={LABELS.display_name} submitted={submitted} autoComplete="off" />}
      </form.Field>
      <form.Field name="role_id">
        {(field) => (
          <FormField
            label={LABELS.role_id}
            hint="Only roles that grant nothing beyond what you hold yourself are offered."
            error={shownError(field.state.meta, submitted)}
          >
            {(control) => (
              <select
                {...control}
                name={field.name}
                className="select"
                value={field.state.value > 0 ? String(field.state.value) : ''}
                onChange={(event) => field.handleChange(event.target.value === '' ? 0 : Number(event.target.value))}
                onBlur={field.handleBlur}
              >
                <option value="">Choose a role</option>
                {props.roles.map((role) => (
                  <option key={role.role_id} value={role.role_id}>
                    {role.name}
                    {role.superuser ? ' (superuser)' : ''}
                  </option>
                ))}
              </select>
            )}
          </FormField>
        )}
      </form.Field>
      {props.notice}
      {failure && (
        <div className="form-error" role="alert">
          {failure}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={isSubmitting}>
          {isSubmitting ? props.sendingLabel : props.submitLabel}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </SectionForm>
  );
}
