import type { LiteLocationChoice, LiteOfficer, LiteOfficerUpdate } from '../../../../contract/enforcement-lite';
import type { AuditEntry } from '../../../../contract/lists';
import { RecordPage } from '../../../../ui/record-page';
import { viewerTimeZone } from '../../../../ui/zoned-time';
import { toast } from '../../../../ui/toast/toast-store';
import { useRecordEdit } from '../../../../ui/use-record-edit';
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
  const edit = useRecordEdit(officer, reload);
  // History names locations by id: the choice list knows their names.
  const names = new Map(choices.map((choice) => [choice.location_id, choice.name]));
  // An officer may work at several locations: their record is read on the viewer's clock.
  const zone = viewerTimeZone();
  return (
    <RecordPage
      title="Enforcement Lite: Edit User"
      lead={
        <p className="page-subtitle">
          {officer.email} · {officerStatusLabel(officer.status)} · {officer.linked ? 'signed in before' : 'has not signed in yet'}
        </p>
      }
      history={{
        entries: history,
        timeZone: zone,
        fieldLabels: LITE_OFFICER_LABELS,
        fieldTypes: LITE_HISTORY_TYPES,
        locationName: (id) => names.get(id),
      }}
    >
      <LiteOfficerForm
        key={edit.base.version}
        mode="edit"
        choices={choices}
        defaultValues={formValuesOf(edit.base)}
        allowDiscard
        submitLabel="Save changes"
        sendingLabel="Saving…"
        {...edit.formProps}
        onSave={async ({ display_name, location_ids, status }) => {
          const saved = await save({ display_name, location_ids, status, version: edit.base.version });
          edit.saved();
          toast({ title: 'Officer saved', description: saved.email });
          void reload();
        }}
        notice={edit.notice('officer', zone)}
      />
    </RecordPage>
  );
}
