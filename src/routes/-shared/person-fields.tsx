import { TextField, type FormWithFields } from '../../ui/bound-fields';

/**
 * Who a sign-in account is for, as staff (Users) and lite officers (Enforcement Lite) are added and edited: the
 * e-mail only when adding (it names the account and is not changed later), then the name.
 */
export function PersonFields({
  form,
  labels,
  emailHint,
  submitted,
}: {
  /** A form whose values hold a person's e-mail and name. */
  form: FormWithFields<'email' | 'display_name'>;
  /** The section's words for both fields. */
  labels: Readonly<Record<string, string>>;
  /** Why the address matters, when the e-mail is asked for; no e-mail field without it. */
  emailHint?: string | undefined;
  submitted: boolean;
}) {
  return (
    <>
      {emailHint && (
        <form.Field name="email">
          {(field) => <TextField field={field} label={labels.email} hint={emailHint} submitted={submitted} type="email" autoComplete="off" />}
        </form.Field>
      )}
      <form.Field name="display_name">
        {(field) => <TextField field={field} label={labels.display_name} submitted={submitted} autoComplete="off" />}
      </form.Field>
    </>
  );
}
