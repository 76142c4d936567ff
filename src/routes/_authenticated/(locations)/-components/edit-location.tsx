import { useState } from 'react';
import { messageOf } from '../../../../api/error-data';
import type { AuditEntry } from '../../../../contract/lists';
import type { Location, LocationFormValues, LocationUpdate } from '../../../../contract/locations';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { ConflictNotice, useVersionConflict } from '../../../../ui/conflict-notice';
import { HistoryPanel } from '../../../../ui/history-panel';
import { SectionPage } from '../../../../ui/section-page';
import { toast } from '../../../../ui/toast/toast-store';
import { LocationForm } from './location-form';
import {
  enforcementLabel,
  graceLabel,
  LOCATION_FIELD_LABELS as LABELS,
  LOCATION_HISTORY_TYPES,
  statusLabel,
} from './location-labels';

export interface EditLocationActions {
  save: (update: LocationUpdate) => Promise<Location>;
  setStatus: (status: Location['status'], version: number) => Promise<Location>;
  remove: (version: number) => Promise<void>;
  /** Loads the location and its history again (after a change, or to see someone else's version). */
  reload: () => Promise<void>;
  /** After a delete: back to the list. */
  leave: () => void;
}

export interface EditLocationProps {
  location: Location;
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
export function EditLocation({ location, history, canEdit, canDelete, actions }: EditLocationProps) {
  // While the form holds unsaved changes it keeps the version they were made on, whatever reloads meanwhile; the
  // save then names that version, and a newer one on the server is a conflict, not a silent overwrite.
  const [pinned, setPinned] = useState<Location | null>(null);
  const base = pinned ?? location;
  const { conflict, setConflict, onSaveFailed } = useVersionConflict();
  const [changed, setChanged] = useState(false);

  const reloadTheirs = async () => {
    await actions.reload();
    setConflict(null);
    setPinned(null);
  };

  return (
    <SectionPage title={canEdit ? 'Edit Location' : 'Location'}>
      <p className="page-subtitle">
        {location.name} · {statusLabel(location.status)}
      </p>
      <div className="record-layout">
        <div className="record-main">
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
                  setPinned((previous) => (isChanged ? (previous ?? location) : null));
                }}
                onSave={async (input) => {
                  const saved = await actions.save({ ...input, status: base.status, version: base.version });
                  setConflict(null);
                  toast({ title: 'Location saved', description: saved.name });
                  void actions.reload();
                }}
                onSaveFailed={onSaveFailed}
                notice={
                  conflict && (
                    <ConflictNotice conflict={conflict} what="location" timeZone={location.time_zone} onReload={reloadTheirs} />
                  )
                }
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
        </div>
        <HistoryPanel
          entries={history}
          timeZone={location.time_zone}
          fieldLabels={LABELS}
          fieldTypes={LOCATION_HISTORY_TYPES}
        />
      </div>
    </SectionPage>
  );
}

function LocationDetails({ location }: { location: Location }) {
  const rows: [string, string][] = [
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
      <dl className="details-list">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">You can view this location. Changing it needs location edit permission here.</p>
    </>
  );
}

type Pending = 'status' | 'delete' | null;

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
  const [open, setOpen] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deactivating = location.status === 'active';
  const nextStatus: Location['status'] = deactivating ? 'inactive' : 'active';

  const openDialog = (which: Pending) => {
    setError(null);
    setOpen(which);
  };
  const run = async (which: Exclude<Pending, null>) => {
    setBusy(true);
    setError(null);
    try {
      if (which === 'status') {
        const saved = await actions.setStatus(nextStatus, location.version);
        toast({ title: deactivating ? 'Location deactivated' : 'Location activated', description: saved.name });
        setOpen(null);
        await actions.reload();
      } else {
        await actions.remove(location.version);
        toast({ title: 'Location deleted', description: location.name });
        setOpen(null);
        actions.leave();
      }
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const statusVerb = deactivating ? 'Deactivate' : 'Activate';
  return (
    <section className="record-actions" aria-label="Location actions">
      <div className="form-actions">
        <ConfirmDialog
          open={open === 'status'}
          onOpenChange={(isOpen) => setOpen(isOpen ? 'status' : null)}
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
          busy={busy}
          error={error}
          onConfirm={() => void run('status')}
        />
        {canDelete && (
          <ConfirmDialog
            open={open === 'delete'}
            onOpenChange={(isOpen) => setOpen(isOpen ? 'delete' : null)}
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
            busy={busy}
            error={
              error && (
                <>
                  <p>{error}</p>
                  {deactivating && (
                    <button type="button" className="button" onClick={() => openDialog('status')}>
                      Deactivate instead
                    </button>
                  )}
                </>
              )
            }
            onConfirm={() => void run('delete')}
          />
        )}
      </div>
      {blockedByChanges && <p className="form-hint">Save or discard your changes first to deactivate, activate or delete.</p>}
    </section>
  );
}
