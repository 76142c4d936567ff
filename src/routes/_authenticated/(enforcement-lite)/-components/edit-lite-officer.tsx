import { useState } from 'react';
import type { LiteLocationChoice, LiteOfficer, LiteOfficerUpdate } from '../../../../contract/enforcement-lite';
import type { AuditEntry } from '../../../../contract/lists';
import { HistoryPanel } from '../../../../ui/history-panel';
import { SectionPage } from '../../../../ui/section-page';
import { viewerTimeZone } from '../../../../ui/zoned-time';
import { toast } from '../../../../ui/toast/toast-store';
import { ConflictNotice, useVersionConflict } from '../../../../ui/conflict-notice';
import { LITE_HISTORY_TYPES, LITE_OFFICER_LABELS, officerStatusLabel } from './lite-labels';
import { LiteOfficerForm, type OfficerFormValues } from './lite-officer-form';

const formValuesOf = (officer: LiteOfficer): OfficerFormValues => ({
  email: officer.email,
  display_name: officer.display_name ?? '',
  location_ids: officer.location_ids,
  status: officer.status,
});

export interface EditLiteOfficerProps {
  officer: LiteOfficer;
  history: readonly AuditEntry[];
  choices: readonly LiteLocationChoice[];
  save: (update: LiteOfficerUpdate) => Promise<LiteOfficer>;
  reload: () => Promise<void>;
}

/** One lite officer: name, locations and status with a version check, and History. Changes apply on their next call. */
export function EditLiteOfficer({ officer, history, choices, save, reload }: EditLiteOfficerProps) {
  const [pinned, setPinned] = useState<LiteOfficer | null>(null);
  const base = pinned ?? officer;
  const { conflict, setConflict, onSaveFailed } = useVersionConflict();
  // History names locations by id: the choice list knows their names.
  const names = new Map(choices.map((choice) => [choice.location_id, choice.name]));
  // An officer may work at several locations: their record is read on the viewer's clock.
  const zone = viewerTimeZone();
  return (
    <SectionPage title="Enforcement Lite: Edit User">
      <p className="page-subtitle">
        {officer.email} · {officerStatusLabel(officer.status)} · {officer.linked ? 'signed in before' : 'has not signed in yet'}
      </p>
      <div className="record-layout">
        <div className="record-main">
          <LiteOfficerForm
            key={base.version}
            mode="edit"
            choices={choices}
            defaultValues={formValuesOf(base)}
            allowDiscard
            submitLabel="Save changes"
            sendingLabel="Saving…"
            onChangedChange={(changed) => setPinned((previous) => (changed ? (previous ?? officer) : null))}
            onSave={async ({ display_name, location_ids, status }) => {
              const saved = await save({ display_name, location_ids, status, version: base.version });
              setConflict(null);
              toast({ title: 'Officer saved', description: saved.email });
              void reload();
            }}
            onSaveFailed={onSaveFailed}
            notice={
              conflict && (
                <ConflictNotice
                  conflict={conflict}
                  what="officer"
                  timeZone={zone}
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
        <HistoryPanel
          entries={history}
          timeZone={zone}
          fieldLabels={LITE_OFFICER_LABELS}
          fieldTypes={LITE_HISTORY_TYPES}
          locationName={(id) => names.get(id)}
        />
      </div>
    </SectionPage>
  );
}
