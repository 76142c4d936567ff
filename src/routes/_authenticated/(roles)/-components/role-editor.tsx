import { useForm, useStore } from '@tanstack/react-form';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf, messageOf, versionConflictOf } from '../../../../api/error-data';
import type { AuditEntry, VersionConflict } from '../../../../contract/lists';
import { roleInputSchema, type Role, type RoleInput, type RoleLocation } from '../../../../contract/roles';
import { ALL_LOCATIONS, holdings, splitAllLocations, type AllLocations } from '../../../../permissions/all-locations';
import { checkRoleChange, FEATURE_LABELS } from '../../../../permissions/escalation';
import { permissionRecordSchema, type PermissionRecord, type PermissionRecordInput } from '../../../../permissions/features';
import { describeChanges, describeRole } from '../../../../permissions/role-matrix';
import { TextField } from '../../../../ui/bound-fields';
import { ConflictNotice } from '../../../../ui/conflict-notice';
import { CheckboxField } from '../../../../ui/form-field';
import { DeleteDialog } from '../../../../ui/delete-dialog';
import { HistoryPanel } from '../../../../ui/history-panel';
import { viewerTimeZone } from '../../../../ui/zoned-time';
import { UnsavedChangesPrompt } from '../../../../ui/unsaved-changes-prompt';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';
import { RoleMatrixTable } from '../../../-shared/role-matrix-table';

export interface RoleEditorProps {
  /** The saved role, or null for a new one. */
  role: Role | null;
  history: readonly AuditEntry[];
  editor: PermissionRecord;
  /** The editor's own grants at all locations, now and later: only those are theirs to give or take away. */
  editorAllLocations: AllLocations;
  locations: readonly RoleLocation[];
  canEdit: boolean;
  canDelete: boolean;
  save: (input: RoleInput, version: number | null) => Promise<Role>;
  remove: (version: number) => Promise<void>;
  /** After a save or delete: the saved role (null when deleted) is shown and the list reloads. */
  onSaved: (role: Role | null) => void;
  reload: () => Promise<void>;
  onClose: () => void;
}

const EMPTY: PermissionRecord = { su: false };
const NONE: AllLocations = {};
/** The matrix's first choice of location when it is offered (src/permissions/all-locations.ts). */
const ALL_LOCATIONS_CHOICE: RoleLocation = { location_id: ALL_LOCATIONS, name: 'All locations, now and later' };
const asRecord = (value: PermissionRecordInput): PermissionRecord => z.parse(permissionRecordSchema, value);

/**
 * The role editor: name, the matrix, the role in plain words, and before saving the list of what would change.
 * Only what the editor may grant is offered (src/permissions/role-matrix.ts); the server decides again.
 */
export function RoleEditor(props: RoleEditorProps) {
  const { role } = props;
  // The editor and the role as the checks read them: each all-locations grant is also held at ALL_LOCATIONS.
  const editor = holdings(props.editor, props.editorAllLocations, []);
  const headingId = useId();
  // The panel's heading takes the focus once, when it opens, so keyboard and screen reader users land in it.
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const formRef = useRef<HTMLFormElement>(null);
  const [reviewing, setReviewing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const saved = holdings(role?.permissions ?? EMPTY, role?.all_locations ?? NONE, []);
  // A superuser role is a superuser's to change; others see it read-only (the server refuses anyway).
  const readOnly = !props.canEdit || (role !== null && role.superuser && !editor.su);
  // "All locations, now and later" is a choice where the editor may grant it, or where the role holds it already.
  const offersAllLocations =
    props.editor.su || Object.keys(props.editorAllLocations).length > 0 || Object.keys(role?.all_locations ?? NONE).length > 0;
  const locations = useMemo(
    () => (offersAllLocations ? [ALL_LOCATIONS_CHOICE, ...props.locations] : props.locations),
    [offersAllLocations, props.locations],
  );
  const names = useMemo(() => new Map(props.locations.map((location) => [location.location_id, location.name])), [props.locations]);
  const locationName = (id: number) => names.get(id) ?? `location ${id}`;

  const form = useForm({
    defaultValues: {
      name: role?.name ?? '',
      permissions: role?.permissions ?? EMPTY,
      all_locations: role?.all_locations ?? NONE,
    } as z.input<typeof roleInputSchema>,
    validators: { onChange: roleInputSchema, onSubmit: roleInputSchema },
    onSubmit: async ({ value, formApi }) => {
      setFailure(null);
      const input = z.parse(roleInputSchema, value);
      try {
        const next = await props.save(input, conflict?.currentVersion ?? role?.version ?? null);
        formApi.reset({ name: next.name, permissions: next.permissions, all_locations: next.all_locations });
        setReviewing(false);
        setConflict(null);
        props.onSaved(next);
      } catch (error) {
        const found = versionConflictOf(error);
        if (found) return setConflict(found);
        const fieldErrors = fieldErrorsOf(error);
        if (fieldErrors?.name) {
          formApi.setFieldMeta('name', (meta) => ({ ...meta, errorMap: { ...meta.errorMap, onServer: fieldErrors.name } }));
          setReviewing(false);
          setTimeout(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
          return;
        }
        setFailure(fieldErrors ? Object.entries(fieldErrors).map(([f, m]) => `${f}: ${m}`).join('; ') : messageOf(error));
      }
    },
  });
  // The form holds the schema's input type (lists may be absent); the matrix and the summary read the parsed record.
  const permissions = holdings(
    asRecord(useStore(form.store, (state) => state.values.permissions)),
    useStore(form.store, (state) => state.values.all_locations) ?? NONE,
    [],
  );
  const isSubmitting = useStore(form.store, (state) => state.isSubmitting);
  const submitted = useStore(form.store, (state) => state.submissionAttempts > 0);
  const nameChanged = useStore(form.store, (state) => state.values.name.trim() !== (role?.name ?? ''));
  const changes = describeChanges(saved, permissions, locationName);
  const allowed = checkRoleChange(editor, role ? saved : null, permissions).ok;

  // A role someone holds is refused: the server's message, said in the dialog, names them (the first ten and how many more).
  const deletion = useConfirmedAction(async () => {
    if (role) await props.remove(role.version);
    return () => props.onSaved(null);
  });

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1} ref={headingRef}>
        {role ? (readOnly ? role.name : `Edit role ${role.name}`) : 'New role'}
      </h2>
      <form
        ref={formRef}
        noValidate
        aria-busy={isSubmitting || undefined}
        onSubmit={(event) => {
          event.preventDefault();
          if (!reviewing) {
            setReviewing(true);
            return;
          }
          void form.handleSubmit();
        }}
      >
        <UnsavedChangesPrompt isChanged={() => !form.state.isDefaultValue && !form.state.isSubmitting} />
        {/* A changed name is a new change to review. */}
        <form.Field name="name" listeners={{ onChange: () => setReviewing(false) }}>
          {(field) => <TextField field={field} label="Role name" submitted={submitted} readOnly={readOnly} />}
        </form.Field>
        {editor.su && !readOnly && (
          <form.Field name="permissions">
            {(field) => (
              <CheckboxField label="Superuser role (passes every check; only superusers may give it)">
                {(control) => (
                  <input
                    {...control}
                    type="checkbox"
                    checked={field.state.value.su === true}
                    onChange={(event) => {
                      setReviewing(false);
                      field.handleChange({ ...field.state.value, su: event.target.checked });
                    }}
                  />
                )}
              </CheckboxField>
            )}
          </form.Field>
        )}
        {!permissions.su && (
          <form.Field name="permissions">
            {(field) => (
              <RoleMatrixTable
                editor={editor}
                value={holdings(asRecord(field.state.value), form.state.values.all_locations ?? NONE, [])}
                locations={locations}
                readOnly={readOnly}
                onChange={(next) => {
                  setReviewing(false);
                  const split = splitAllLocations(next);
                  form.setFieldValue('all_locations', split.all_locations);
                  field.handleChange(split.permissions);
                }}
              />
            )}
          </form.Field>
        )}
        <h3>In plain words</h3>
        {describeRole(permissions, locationName).length === 0 ? (
          <p className="muted">This role grants nothing yet.</p>
        ) : (
          <ul className="role-summary">
            {describeRole(permissions, locationName).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        )}
        {reviewing && (
          <div role="status" className="role-diff">
            <h3>Changes to save</h3>
            {changes.length === 0 && !nameChanged ? (
              <p>Nothing has changed.</p>
            ) : (
              <ul>
                {nameChanged && <li>Renames the role to “{form.state.values.name.trim()}”</li>}
                {changes.map((change) => (
                  <li key={change.words}>{change.words}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {!allowed && !readOnly && (
          <p className="form-error" role="alert">
            This role holds permissions you do not hold: only what you hold yourself can be changed.
          </p>
        )}
        {conflict && (
          <ConflictNotice
            conflict={conflict}
            what="role"
            timeZone={viewerTimeZone()}
            onReload={() => props.reload().then(() => setConflict(null))}
          />
        )}
        {failure && (
          <div className="form-error" role="alert">
            {failure}
          </div>
        )}
        <div className="form-actions">
          {!readOnly && (
            <button type="submit" className="button primary" disabled={isSubmitting}>
              {isSubmitting ? 'Saving…' : reviewing ? 'Save changes' : 'Review changes'}
            </button>
          )}
          <button type="button" className="button" onClick={props.onClose}>
            {readOnly ? 'Close' : 'Cancel'}
          </button>
          {role && props.canDelete && !readOnly && (
            <DeleteDialog
              action={deletion}
              label="Delete role"
              title={`Delete the role ${role.name}?`}
              description={
                role.user_count > 0
                  ? `${role.user_count} staff member(s) hold it: give them another role first.`
                  : 'Nobody holds it. This cannot be undone.'
              }
            />
          )}
        </div>
      </form>
      {role && (
        <HistoryPanel
          entries={props.history}
          timeZone={viewerTimeZone()}
          fieldLabels={{ name: 'Name', permissions: 'Permissions', superuser: 'Superuser', all_locations: 'All locations, now and later' }}
          locationName={locationName}
          fieldTypes={{
            superuser: 'boolean',
            location_id: 'location',
            // A location's creator is granted access to it: { feature: 'lo', location_id, levels }.
            feature: { enum: FEATURE_LABELS },
            all_locations: {
              text: (value) =>
                Object.entries((value ?? {}) as AllLocations)
                  .map(([feature, level]) => `${FEATURE_LABELS[feature as keyof AllLocations]}: ${level}`)
                  .join('; ') || 'none',
            },
            permissions: { text: (value) => (typeof value === 'object' ? describeRole(value as PermissionRecord, locationName).join('. ') || 'nothing' : String(value)) },
          }}
        />
      )}
    </section>
  );
}
