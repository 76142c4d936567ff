import { userInviteSchema, type AssignableRole, type StaffUser, type UserInvite } from '../../../../contract/users';
import { FormField } from '../../../../ui/form-field';
import { shownError } from '../../../../ui/form-errors';
import { SectionFormFrame, useSectionForm, type SectionFormProps } from '../../../../ui/use-section-form';
import { PersonFields } from '../../../-shared/person-fields';
import { otherHoldersLabel } from './user-labels';

/** The invite form's values; the edit form has the same without the e-mail (which names the sign-in account). */
export interface UserFormValues {
  email: string;
  display_name: string;
  /** 0 until a role is chosen: the schema refuses it with "Choose a role." */
  role_id: number;
}

const LABELS: Record<keyof UserFormValues, string> = { email: 'E-mail', display_name: 'Name', role_id: 'Role' };
const FIELDS = Object.keys(LABELS);

export interface UserFormProps extends SectionFormProps<UserInvite> {
  mode: 'invite' | 'edit';
  defaultValues: UserFormValues;
  /** The roles offered: those the editor may give, plus the user's current one (shown even when not theirs to give). */
  roles: readonly AssignableRole[];
  /** The staff member being edited (not "also" a holder of their own role); none for an invitation. */
  user?: Pick<StaffUser, 'role_id' | 'display_name' | 'email'> | undefined;
  onCancel: () => void;
}

const ROLE_HINT = 'Only roles that grant nothing beyond what you hold yourself are offered.';

/**
 * Invite and edit (a section form, docs/sections.md "Forms", with the contract's schema): messages at their fields,
 * the server's 400 placed the same way, anything else said above the buttons; what was typed stays on any failure.
 */
export function UserForm(props: UserFormProps) {
  // The edit form carries the staff member's e-mail unchanged (not shown), so one schema serves both.
  const { form, submitted, frame } = useSectionForm(props, userInviteSchema, FIELDS);

  return (
    <SectionFormFrame frame={frame} className="user-form">
      <PersonFields
        form={form}
        labels={LABELS}
        emailHint={props.mode === 'invite' ? 'The set-password link is for this address.' : undefined}
        submitted={submitted}
      />
      <form.Field name="role_id">
        {(field) => {
          const chosen = props.roles.find((role) => role.role_id === field.state.value);
          const holders = chosen ? otherHoldersLabel(chosen, props.user) : null;
          return (
            <FormField
              label={LABELS.role_id}
              hint={
                holders ? (
                  <>
                    <span className="role-holders">{holders} A later change of this role changes their access too.</span>{' '}
                    {ROLE_HINT}
                  </>
                ) : (
                  ROLE_HINT
                )
              }
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
          );
        }}
      </form.Field>
    </SectionFormFrame>
  );
}
