import { useState } from 'react';
import type { LiteLocation, LiteLocationFormValues, LiteLocationUpdate } from '../../../../contract/enforcement-lite';
import type { AuditEntry } from '../../../../contract/lists';
import { HistoryPanel } from '../../../../ui/history-panel';
import { SectionPage } from '../../../../ui/section-page';
import { toast } from '../../../../ui/toast/toast-store';
import { ConflictNotice, useVersionConflict } from '../../../../ui/conflict-notice';
import { LITE_HISTORY_TYPES, LITE_LOCATION_LABELS, liteLocationStatusLabel } from './lite-labels';
import { LiteLocationForm } from './lite-location-form';

const formValuesOf = (location: LiteLocation): LiteLocationFormValues => ({
  name: location.name,
  address: location.address,
  time_zone: location.time_zone,
  capacity: location.capacity,
  grace_period_minutes: location.grace_period_minutes,
  operator_name: location.operator_name,
  status: location.status,
});

export interface EditLiteLocationProps {
  location: LiteLocation;
  history: readonly AuditEntry[];
  save: (update: LiteLocationUpdate) => Promise<LiteLocation>;
  /** Loads the location and its History again. */
  reload: () => Promise<void>;
}

/** One lite location: the form with its version check (the status is a field), and History. */
export function EditLiteLocation({ location, history, save, reload }: EditLiteLocationProps) {
  // While the form holds unsaved changes it keeps the version they were made on, whatever reloads meanwhile.
  const [pinned, setPinned] = useState<LiteLocation | null>(null);
  const base = pinned ?? location;
  const { conflict, setConflict, onSaveFailed } = useVersionConflict();
  return (
    <SectionPage title="Enforcement Lite: Edit Location">
      <p className="page-subtitle">
        {location.name} · {location.operator_name} · {liteLocationStatusLabel(location.status)} ·{' '}
        {location.officer_count === 1 ? '1 officer' : `${location.officer_count} officers`}
      </p>
      <div className="record-layout">
        <div className="record-main">
          <LiteLocationForm
            key={base.version}
            defaultValues={formValuesOf(base)}
            allowDiscard
            submitLabel="Save changes"
            sendingLabel="Saving…"
            onChangedChange={(changed) => setPinned((previous) => (changed ? (previous ?? location) : null))}
            onSave={async (input) => {
              const saved = await save({ ...input, version: base.version });
              setConflict(null);
              toast({ title: 'Lite location saved', description: saved.name });
              void reload();
            }}
            onSaveFailed={onSaveFailed}
            notice={
              conflict && (
                <ConflictNotice
                  conflict={conflict}
                  what="location"
                  timeZone={location.time_zone}
                  onReload={async () => {
                    await reload();
                    setConflict(null);
                    setPinned(null);
                  }}
                />
              )
            }
          />
        </div>
        <HistoryPanel entries={history} timeZone={location.time_zone} fieldLabels={LITE_LOCATION_LABELS} fieldTypes={LITE_HISTORY_TYPES} />
      </div>
    </SectionPage>
  );
}
