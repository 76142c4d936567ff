import type { AuditEntry } from '../../../../contract/lists';
import type { PromoCode, PromoCodeInput } from '../../../../contract/promo-codes';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { ConfirmDialog } from '../../../../ui/confirm-dialog';
import { RecordPage } from '../../../../ui/record-page';
import { useConfirmedAction } from '../../../../ui/use-confirmed-action';
import { useRecordEdit } from '../../../../ui/use-record-edit';
import { draftOf, promoCodeZone } from './promo-code-draft';
import { PromoCodeForm } from './promo-code-form';
import { promoCodeHistory } from './promo-code-history';
import { PromoCodeSummary } from './promo-code-summary';

export interface EditPromoCodeActions {
  save: (input: PromoCodeInput & { version: number }) => Promise<unknown>;
  setActive: (change: { active: boolean; version: number }) => Promise<unknown>;
  /** Loads the code and its History again, and settles once they are on screen. */
  reload: () => Promise<void>;
}

/**
 * One promo code: its use so far, the edit form with its version check and Deactivate/Activate behind a
 * confirmation, and History; read only for a user who may not edit it at each of its locations.
 */
export function EditPromoCode({
  code,
  history,
  locations,
  mayEdit,
  actions,
}: {
  code: PromoCode;
  history: readonly AuditEntry[];
  /** Every location the user may view, with its zone. */
  locations: readonly LocationRef[];
  /** Promo-code edit at a location: the code is editable with it at each of its locations, and may be given those. */
  mayEdit: (locationId: number) => boolean;
  actions: EditPromoCodeActions;
}) {
  const choices = locations.filter((location) => mayEdit(location.location_id));
  const canEdit = code.location_ids.every(mayEdit);
  const edit = useRecordEdit(code, actions.reload);
  const statusChange = useConfirmedAction(async () => {
    await actions.setActive({ active: !code.active, version: code.version });
    return () => void actions.reload();
  });
  // The code's clock: its locations' zone when they share one, else the viewer's.
  const timeZone = promoCodeZone(code.location_ids, locations);
  const statusVerb = code.active ? 'Deactivate' : 'Activate';
  return (
    <RecordPage
      title={`Promo code ${code.code}`}
      lead={
        <p>
          Used {code.uses.toLocaleString('en-US')} times{code.remaining === null ? ' (no cap)' : `, ${code.remaining.toLocaleString('en-US')} left`}.{' '}
          {code.active ? 'Active.' : 'Deactivated.'}
        </p>
      }
      history={promoCodeHistory({ code, history, locations, timeZone })}
    >
      {canEdit ? (
        <>
          <PromoCodeForm
            key={edit.base.version}
            defaultValues={draftOf(edit.base, timeZone)}
            // The code's own locations stay listed even where the user could not give them anew.
            locations={[...choices, ...locations.filter((l) => code.location_ids.includes(l.location_id) && !choices.includes(l))]}
            submitLabel="Save changes"
            onSave={async (input) => {
              await actions.save({ ...input, version: edit.base.version });
              edit.saved();
              await actions.reload();
            }}
            onSaveFailed={edit.formProps.onSaveFailed}
            notice={edit.notice('promo code', timeZone)}
          />
          <ConfirmDialog
            {...statusChange.dialog}
            trigger={
              <button type="button" className={`button ${code.active ? 'danger' : ''}`}>
                {statusVerb}
              </button>
            }
            title={`${statusVerb} ${code.code}?`}
            description={<p>{code.active ? 'Parkers can no longer use this code until it is activated again.' : 'Parkers can use this code again within its window.'}</p>}
            confirmLabel={statusVerb}
            busyLabel="Saving…"
            destructive={code.active}
          />
        </>
      ) : (
        <>
          <PromoCodeSummary code={code} locations={locations} timeZone={timeZone} />
          <p>You may view this code; editing it needs promo-code edit permission at each of its locations.</p>
        </>
      )}
    </RecordPage>
  );
}
