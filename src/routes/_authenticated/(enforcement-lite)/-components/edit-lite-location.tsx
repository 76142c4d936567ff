import type { LiteLocation, LiteLocationFormValues, LiteLocationUpdate } from '../../../../contract/enforcement-lite';
import type { AuditEntry } from '../../../../contract/lists';
import { RecordPage } from '../../../../ui/record-page';
import { toast } from '../../../../ui/toast/toast-store';
import { useRecordEdit } from '../../../../ui/use-record-edit';
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
  const edit = useRecordEdit(location, reload);
  return (
    <RecordPage
      title="Enforcement Lite: Edit Location"
      lead={
        <p className="page-subtitle">
          {location.name} · {location.operator_name} · {liteLocationStatusLabel(location.status)} ·{' '}
          {location.officer_count === 1 ? '1 officer' : `${location.officer_count} officers`}
        </p>
      }
      history={{ entries: history, timeZone: location.time_zone, fieldLabels: LITE_LOCATION_LABELS, fieldTypes: LITE_HISTORY_TYPES }}
    >
      <LiteLocationForm
        key={edit.base.version}
        defaultValues={formValuesOf(edit.base)}
        allowDiscard
        submitLabel="Save changes"
        sendingLabel="Saving…"
        {...edit.formProps}
        onSave={async (input) => {
          const saved = await save({ ...input, version: edit.base.version });
          edit.saved();
          toast({ title: 'Lite location saved', description: saved.name });
          void reload();
        }}
        notice={edit.notice('location', location.time_zone)}
      />
    </RecordPage>
  );
}
