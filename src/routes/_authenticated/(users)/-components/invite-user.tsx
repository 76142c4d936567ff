import { useEffect, useId, useRef, useState } from 'react';
import type { AssignableRole, StaffUser, UserInvite } from '../../../../contract/users';
import { SetPasswordLink } from '../../../-shared/set-password-link';
import { UserForm } from './user-form';

/** One object for every render: the form compares its default values between renders. */
const EMPTY_INVITE = { email: '', display_name: '', role_id: 0 };

export interface InviteUserProps {
  roles: readonly AssignableRole[];
  invite: (input: UserInvite) => Promise<{ user: StaffUser; setPasswordLink: string }>;
  onClose: () => void;
}

/** Invite: e-mail, name and role; the server creates the sign-in account and answers with the set-password link. */
export function InviteUser({ roles, invite, onClose }: InviteUserProps) {
  const headingId = useId();
  // The panel's heading takes the focus once, when it opens, so keyboard and screen reader users land in it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const [sent, setSent] = useState<{ user: StaffUser; setPasswordLink: string } | null>(null);
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1} ref={headingRef}>
        Invite a staff member
      </h2>
      {sent ? (
        <SetPasswordLink
          link={sent.setPasswordLink}
          againLabel="Invite another"
          onAgain={() => setSent(null)}
          done={
            <button type="button" className="button primary" onClick={onClose}>
              Done
            </button>
          }
        >
          {sent.user.display_name ?? sent.user.email} is invited with the role {sent.user.role_name}.
        </SetPasswordLink>
      ) : roles.length === 0 ? (
        <p>There is no role you may give: a role may grant only what you hold yourself.</p>
      ) : (
        <UserForm
          mode="invite"
          defaultValues={EMPTY_INVITE}
          roles={roles}
          submitLabel="Send invitation"
          sendingLabel="Inviting…"
          onSave={async (input) => setSent(await invite(input))}
          onCancel={onClose}
        />
      )}
    </section>
  );
}
