import { lazy, Suspense, useState } from 'react';
import type { AuditEntry } from '../../../../contract/lists';
import type { Location, LocationFormValues, LocationUpdate } from '../../../../contract/locations';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { DetailsList, RecordPage, type DetailRow } from '../../../../ui/record-page';
import { toast } from '../../../../ui/toast/toast-store';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';
import { useRecordEdit } from '../../../../ui/use-record-edit';
import { LocationForm } from './location-form';
import type { ViolationActions } from './location-violations';
import {
  enforcementLabel,
  graceLabel,
  LOCATION_FIELD_LABELS as LABELS,
  LOCATION_HISTORY_TYPES,
  statusLabel,
} from './location-labels';

const LocationViolations = lazy(() => import('./location-violations').then((module) => ({ default: module.LocationViolations })));

export interface EditLocationActions {
  save: (update: LocationUpdate) => Promise<Location>;
  setStatus: (status: Location['status'], version: number) => Promise<Location>;
  remove: (version: number) => Promise<void>;
  /** Loads the location and its history again (after a change, or to see someone else's version). */
  reload: () => Promise<void>;
  /** After a delete: back to the list. */
  leave: () => void;
  violations: Omit<ViolationActions, 'reload'>;
}

/** The route's loader data as it is (`loadRecordPage` and the permissions), and the actions. */
export interface EditLocationProps {
  record: Location;
  history: readonly AuditEntry[];
  /** Location edit permission here: without it the page shows the details read-only, with no actions. */
  canEdit: boolean;
  canDelete: boolean;
  actions: EditLocationActions;
}

const formValuesOf = (location: Location): LocationFormValues => ({
  name: location.name,
  address: location.address,
  time_zone: location.time_zone,
  capacity: location.capacity,
  status: location.status,
  enforcement_enabled: location.enforcement_enabled,
  grace_period_minutes: location.grace_period_minutes,
});

/**
 * One location: the edit form with its version check, Deactivate/Activate and Delete behind a confirmation, and the
 * History panel; read-only details for a user who may view but not edit it.
 */
export function EditLocation({ record: location, history, canEdit, canDelete, actions }: EditLocationProps) {
  // While the form holds unsaved changes it keeps the version they were made on, whatever reloads meanwhile; the
  // save then names that version, and a newer one on the server is a conflict, not a silent overwrite.
  const edit = useRecordEdit(location, actions.reload);
  const base = edit.base;
  const [changed, setChanged] = useState(false);

  return (
    <RecordPage
      title={canEdit ? 'Edit Location' : 'Location'}
      lead={
        <p className="page-subtitle">
          {location.name} · {statusLabel(location.status)}
        </p>
      }
      history={{ entries: history, timeZone: location.time_zone, fieldLabels: LABELS, fieldTypes: LOCATION_HISTORY_TYPES }}
    >
      {canEdit ? (
        <>
          <LocationForm
            key={base.version}
            defaultValues={formValuesOf(base)}
            showStatus={false}
            allowDiscard
            submitLabel="Save changes"
            sendingLabel="Saving…"
            onChangedChange={(isChanged) => {
              setChanged(isChanged);
              edit.formProps.onChangedChange(isChanged);
            }}
            onSave={async (input) => {
              const saved = await actions.save({ ...input, status: base.status, version: base.version });
              edit.saved();
              toast({ title: 'Location saved', description: saved.name });
              void actions.reload();
            }}
            onSaveFailed={edit.formProps.onSaveFailed}
            notice={edit.notice('location', location.time_zone)}
          />
          <LocationActions
            location={base}
            canDelete={canDelete}
            blockedByChanges={changed}
            actions={actions}
          />
        </>
      ) : (
        <LocationDetails location={location} />
      )}
      {/* Its own chunk: the violations' schemas and screen stay out of what every route preloads. */}
      <Suspense fallback={<p className="muted">Loading violations…</p>}>
        <LocationViolations canEdit={canEdit} actions={{ ...actions.violations, reload: actions.reload }} />
      </Suspense>
    </RecordPage>
  );
}

function LocationDetails({ location }: { location: Location }) {
  const rows: DetailRow[] = [
    [LABELS.name!, location.name],
    [LABELS.address!, location.address],
    [LABELS.time_zone!, location.time_zone],
    [LABELS.capacity!, location.capacity.toLocaleString('en-US')],
    [LABELS.status!, statusLabel(location.status)],
    [LABELS.enforcement_enabled!, enforcementLabel(location.enforcement_enabled)],
    [LABELS.grace_period_minutes!, graceLabel(location.grace_period_minutes)],
  ];
  return (
    <>
      <DetailsList rows={rows} />
      <p className="muted">You can view this location. Changing it needs location edit permission here.</p>
    </>
  );
}

/** Deactivate/Activate and Delete, each confirmed first; not while the form holds unsaved changes. */
function LocationActions({
  location,
  canDelete,
  blockedByChanges,
  actions,
}: {
  location: Location;
  canDelete: boolean;
  blockedByChanges: boolean;
  actions: EditLocationActions;
}) {
  const deactivating = location.status === 'active';
  const statusChange = useConfirmedAction(async () => {
    const saved = await actions.setStatus(deactivating ? 'inactive' : 'active', location.version);
    toast({ title: deactivating ? 'Location deactivated' : 'Location activated', description: saved.name });
    return () => void actions.reload();
  });
  const removal = useConfirmedAction(async () => {
    await actions.remove(location.version);
    toast({ title: 'Location deleted', description: location.name });
    return actions.leave;
  });

  const statusVerb = deactivating ? 'Deactivate' : 'Activate';
  return (
    <section className="record-actions" aria-label="Location actions">
      <div className="form-actions">
        <ConfirmDialog
          {...statusChange.dialog}
          trigger={
            <button type="button" className="button" disabled={blockedByChanges}>
              {statusVerb}
            </button>
          }
          title={`${statusVerb} ${location.name}?`}
          description={
            deactivating ? (
              <p>
                The location stays in the lists as Inactive, with its history and records. You can activate it again
                at any time.
              </p>
            ) : (
              <p>The location becomes Active again.</p>
            )
          }
          confirmLabel={statusVerb}
          busyLabel={deactivating ? 'Deactivating…' : 'Activating…'}
          destructive={deactivating}
        />
        {canDelete && (
          <ConfirmDialog
            {...removal.dialog}
            trigger={
              <button type="button" className="button danger-outline" disabled={blockedByChanges}>
                Delete
              </button>
            }
            title={`Delete ${location.name}?`}
            description={
              <p>
                This cannot be undone. A location with payments, bookings or monthly parkers cannot be deleted:
                deactivate it instead.
              </p>
            }
            confirmLabel="Delete"
            busyLabel="Deleting…"
            destructive
            error={
              removal.dialog.error && (
                <>
                  <p>{removal.dialog.error}</p>
                  {deactivating && (
                    <button
                      type="button"
                      className="button"
                      onClick={() => {
                        removal.dialog.onOpenChange(false);
                        statusChange.show();
                      }}
                    >
                      Deactivate instead
                    </button>
                  )}
                </>
              )
            }
          />
        )}
      </div>
      {blockedByChanges && <p className="form-hint">Save or discard your changes first to deactivate, activate or delete.</p>}
    </section>
  );
}
