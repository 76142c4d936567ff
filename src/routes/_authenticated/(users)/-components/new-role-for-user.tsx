import { useEffect, useId, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { messageOf } from '../../../../api/error-data';
import { roleInputSchema, type RoleLocation } from '../../../../contract/roles';
import type { StaffUser } from '../../../../contract/users';
import { permissionRecordSchema, type PermissionRecord, type PermissionRecordInput } from '../../../../permissions/features';
import { TextField } from '../../../../ui/bound-fields';
import { SectionFormFrame, useSectionForm } from '../../../../ui/use-section-form';
import { RoleMatrixTable } from '../../../-shared/role-matrix-table';

/** The form's values as the server nests them, so that its 400 on `role.name` lands at the name. */
const newRoleSchema = z.strictObject({ role: roleInputSchema });
type NewRole = z.infer<typeof newRoleSchema>;
const FIELDS = ['role.name'];
const asRecord = (value: PermissionRecordInput): PermissionRecord => z.parse(permissionRecordSchema, value);

/** What the form starts from: every location by name and what the user's current role grants. */
export interface NewRoleStart {
  locations: RoleLocation[];
  permissions: PermissionRecord;
}

export interface NewRoleForUserProps {
  user: StaffUser;
  /** What the signed-in editor holds: the matrix offers only that. */
  editor: PermissionRecord;
  load: () => Promise<NewRoleStart>;
  save: (role: NewRole['role']) => Promise<void>;
  onCancel: () => void;
}

/**
 * Save as new role (docs/users-and-roles.md): when one person's access should differ from their role's, the editor
 * names a new role for the job, sets its access (starting from the current role's), and it is created and given to
 * this person alone. The role they hold now, and everyone holding it, is left as it is.
 */
export function NewRoleForUser({ user, editor, load, save, onCancel }: NewRoleForUserProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [start, setStart] = useState<NewRoleStart | { failed: string } | null>(null);
  // Loaded once, when the form opens: a new `load` from a re-render of the page must not reset what was chosen.
  const loadOnce = useRef(load);
  useEffect(() => {
    let live = true;
    loadOnce.current().then(
      (loaded) => live && setStart(loaded),
      (error: unknown) => live && setStart({ failed: messageOf(error) }),
    );
    return () => {
      live = false;
    };
  }, []);
  useEffect(() => headingRef.current?.focus(), []);
  const who = user.display_name ?? user.email;
  return (
    <section className="panel new-role" aria-labelledby={headingId}>
      <h3 id={headingId} tabIndex={-1} ref={headingRef}>
        Save as new role
      </h3>
      <p>
        {who} gets the new role alone; {user.role_name ? `“${user.role_name}”` : 'the role they hold now'} and everyone
        holding it stay as they are.
      </p>
      {start === null ? (
        <p role="status">Loading locations…</p>
      ) : 'failed' in start ? (
        <p className="form-error" role="alert">
          {start.failed}
        </p>
      ) : (
        <NewRoleForm start={start} editor={editor} who={who} save={save} onCancel={onCancel} />
      )}
    </section>
  );
}

function NewRoleForm({
  start,
  editor,
  who,
  save,
  onCancel,
}: Pick<NewRoleForUserProps, 'editor' | 'save' | 'onCancel'> & { start: NewRoleStart; who: string }) {
  const { form, submitted, frame } = useSectionForm(
    {
      defaultValues: { role: { name: '', permissions: start.permissions as PermissionRecordInput } },
      submitLabel: `Create role and give it to ${who}`,
      sendingLabel: 'Saving…',
      onSave: (values: NewRole) => save(values.role),
      onCancel,
    },
    newRoleSchema,
    FIELDS,
  );
  return (
    <SectionFormFrame frame={frame} className="new-role-form">
      <form.Field name="role.name">
        {(field) => (
          <TextField
            field={field}
            label="New role name"
            hint="Name it for the job, not the person (e.g. “Promotions – Seattle, weekends”)."
            submitted={submitted}
            autoComplete="off"
          />
        )}
      </form.Field>
      <form.Field name="role.permissions">
        {(field) => (
          <RoleMatrixTable
            editor={editor}
            value={asRecord(field.state.value)}
            locations={start.locations}
            readOnly={false}
            onChange={(next) => field.handleChange(next)}
          />
        )}
      </form.Field>
    </SectionFormFrame>
  );
}
