import { useEffect, useId, useRef, useState } from 'react';
import type { AuditEntry } from '../../../../contract/lists';
import type { RoleInput } from '../../../../contract/roles';
import type { AssignableRole, StaffUser, UserStatus, UserUpdate } from '../../../../contract/users';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { DeleteDialog } from '../../../../ui/delete-dialog';
import { HistoryPanel } from '../../../../ui/history-panel';
import { viewerTimeZone } from '../../../../ui/zoned-time';
import { toast } from '../../../../ui/toast/toast-store';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';
import { useRecordEdit } from '../../../../ui/use-record-edit';
import { locationsLabel, statusLabel, USER_FIELD_LABELS } from './user-labels';
import { UserForm } from './user-form';
import { NewRoleForUser, type NewRoleForUserProps } from './new-role-for-user';

export interface EditUserProps {
  user: StaffUser;
  history: readonly AuditEntry[];
  roles: readonly AssignableRole[];
  save: (update: UserUpdate) => Promise<StaffUser>;
  setStatus: (status: UserStatus, version: number) => Promise<StaffUser>;
  /** Loads the user and its history again. */
  reload: () => Promise<void>;
  /** Deletes an invitation nobody used (offered with users delete, to someone who never signed in). */
  remove?: ((version: number) => Promise<void>) | undefined;
  /** Save as new role (offered with users edit and user roles add): what the form needs besides the user. */
  newRole?: Pick<NewRoleForUserProps, 'editor' | 'load'> & {
    save: (role: RoleInput, version: number) => Promise<StaffUser>;
  } | undefined;
  onClose: () => void;
}

/** Name and role (with the version they were read at), disable / enable after asking, and History. */
export function EditUser({ user, history, roles, save, setStatus, reload, remove, newRole, onClose }: EditUserProps) {
  const headingId = useId();
  // The panel's heading takes the focus once, when it opens, so keyboard and screen reader users land in it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  // No pinning here: after a conflict the next save is made over the version the conflict named.
  const edit = useRecordEdit(user, reload);
  const [creatingRole, setCreatingRole] = useState(false);
  // The current role stays listed even when it is not the editor's to give (it may be kept, not chosen again).
  const offered = roles.some((role) => role.role_id === user.role_id) || user.role_id === null
    ? roles
    : [
        ...roles,
        {
          role_id: user.role_id,
          name: user.role_name ?? `Role ${user.role_id}`,
          superuser: user.role_superuser,
          // Not the editor's to give, so its other holders are not listed with it.
          holders: [],
          holder_count: 0,
        },
      ];
  const nextStatus: UserStatus = user.status === 'active' ? 'disabled' : 'active';
  const deletion = useConfirmedAction(async () => {
    await remove?.(user.version);
    return () => {
      toast({ title: 'Invitation deleted' });
      onClose();
    };
  });
  const statusChange = useConfirmedAction(async () => {
    await setStatus(nextStatus, user.version);
    return () => {
      toast({ title: nextStatus === 'disabled' ? 'Staff member disabled' : 'Staff member enabled' });
      void reload();
    };
  });
  const who = user.display_name ?? user.email;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1} ref={headingRef}>
        Edit {who}
      </h2>
      <p>
        {user.email} · {statusLabel(user.status)}
      </p>
      <p>Locations: {locationsLabel(user)}</p>
      <UserForm
        key={`${user.user_id}-${user.version}`}
        mode="edit"
        defaultValues={{ email: user.email, display_name: user.display_name ?? '', role_id: user.role_id ?? 0 }}
        roles={offered}
        user={user}
        submitLabel="Save"
        sendingLabel="Saving…"
        onSave={async (values) => {
          edit.saved();
          await save({ display_name: values.display_name, role_id: values.role_id, version: edit.conflict?.currentVersion ?? user.version });
          toast({ title: 'Saved' });
          await reload();
        }}
        onSaveFailed={edit.formProps.onSaveFailed}
        notice={edit.notice('staff member', viewerTimeZone())}
        onCancel={onClose}
      />
      {newRole &&
        (creatingRole ? (
          <NewRoleForUser
            user={user}
            editor={newRole.editor}
            load={newRole.load}
            save={async (role) => {
              await newRole.save(role, user.version);
              toast({ title: `Saved with the new role ${role.name}` });
              setCreatingRole(false);
              await reload();
            }}
            onCancel={() => setCreatingRole(false)}
          />
        ) : (
          <button type="button" className="button" onClick={() => setCreatingRole(true)}>
            Save as new role…
          </button>
        ))}
      <ConfirmDialog
        {...statusChange.dialog}
        trigger={
          <button type="button" className={`button ${nextStatus === 'disabled' ? 'danger' : ''}`}>
            {nextStatus === 'disabled' ? 'Disable' : 'Enable'}
          </button>
        }
        title={nextStatus === 'disabled' ? `Disable ${who}?` : `Enable ${who}?`}
        description={
          nextStatus === 'disabled'
            ? 'Their next action in the console is refused and signs them out. You can enable them again later.'
            : 'They can sign in again with the permissions of their role.'
        }
        confirmLabel={nextStatus === 'disabled' ? 'Disable' : 'Enable'}
        busyLabel={nextStatus === 'disabled' ? 'Disabling…' : 'Enabling…'}
        destructive={nextStatus === 'disabled'}
      />
      {remove && user.last_sign_in_at === null && (
        <DeleteDialog
          action={deletion}
          label="Delete invitation"
          outline
          title={`Delete ${who}?`}
          description="They have never signed in. Their staff account and sign-in account are deleted; invite them again if needed."
        />
      )}
      <HistoryPanel
        entries={history}
        timeZone={viewerTimeZone()}
        fieldLabels={USER_FIELD_LABELS}
        fieldTypes={{
          role_id: { text: (value) => offered.find((role) => role.role_id === value)?.name ?? `Role ${String(value)}` },
          status: { enum: { active: statusLabel('active'), disabled: statusLabel('disabled') } },
        }}
      />
    </section>
  );
}
