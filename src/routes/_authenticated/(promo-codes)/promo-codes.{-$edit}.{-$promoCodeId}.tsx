import { createFileRoute, notFound, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import * as z from 'zod/mini';
import { versionConflictOf } from '../../../api/error-data';
import { createPromoCode, setPromoCodeActive, updatePromoCode } from '../../../api/promo-codes';
import { requireAccess } from '../../-shared/require-access';
import { canonicalIdParam } from '../../../contract/ids';
import type { VersionConflict } from '../../../contract/lists';
import { hasPermission } from '../../../permissions/rules';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { DateTime } from '../../../ui/date-time';
import { SectionPage } from '../../../ui/section-page';
import { pageLoadOptions } from '../../../api/page-load';
import { LoadFailure } from '../../../ui/load-failure';
import { NotFound } from '../../../ui/not-found';
import { draftOf, newDraft, promoCodeZone } from './-components/promo-code-draft';
import { PromoCodeForm } from './-components/promo-code-form';
import { PromoCodeHistory } from './-components/promo-code-history';
import { PromoCodeSummary } from './-components/promo-code-summary';
import { invalidatePromoCodes } from './-components/invalidate-promo-codes';
import { recordOrNotFound } from '../../-shared/record-or-not-found';

/**
 * Add (`/promo-codes/add`) and edit (`/promo-codes/edit/{promoCodeId}`) a promo code: spec §2's
 * `/promo-codes/{edit?}/{promoCodeId?}`, open to promo-code permission with canAdd or canEdit; the segment decides.
 */
export const Route = createFileRoute('/_authenticated/(promo-codes)/promo-codes/{-$edit}/{-$promoCodeId}')({
  beforeLoad: ({ context }) => requireAccess(context, 'promoCodeEdit'),
  loader: async ({ context, params, abortController }) => {
    const options = pageLoadOptions(abortController);
    // Imported here, not at the top: the entry chunk carries no promo-code code (docs/decisions.md).
    const { getPromoCode, getPromoCodeHistory, listPromoCodeLocations } = await import('../../../api/promo-codes');
    const locations = await listPromoCodeLocations(context.api, options);
    if (params.edit !== 'edit') {
      if (params.promoCodeId !== undefined || !context.permissions.promoCodePermissions.canAdd) throw notFound();
      return { code: null, history: [], locations };
    }
    const parsed = z.safeParse(canonicalIdParam(), params.promoCodeId);
    if (!parsed.success) throw notFound();
    return recordOrNotFound(async () => {
      const [code, history] = await Promise.all([
        getPromoCode(context.api, parsed.data, options),
        getPromoCodeHistory(context.api, parsed.data, options),
      ]);
      return { code, history, locations };
    });
  },
  notFoundComponent: () => (
    <NotFound
      title="Promo code not found"
      message="This promo code was not found, or it is not at one of your locations."
      back={{ to: '/promo-codes', label: 'Back to Promo Codes' }}
    />
  ),
  errorComponent: ({ error }) => (
    <LoadFailure title="Promo code" error={error} back={{ to: '/promo-codes', label: 'Back to Promo Codes' }} />
  ),
  component: PromoCodePage,
});

function PromoCodePage() {
  const { code, history, locations } = Route.useLoaderData();
  const { api, permissions } = Route.useRouteContext();
  const router = useRouter();
  const navigate = Route.useNavigate();
  const [conflict, setConflict] = useState<VersionConflict | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [statusError, setStatusError] = useState<string | null>(null);
  const level = code ? 'edit' : 'add';
  const choices = locations.filter((location) => hasPermission(permissions.permissions, 'pc', level, [location.location_id]));
  const canEdit = code !== null && code.location_ids.every((id) => hasPermission(permissions.permissions, 'pc', 'edit', [id]));

  if (!code) {
    return (
      <SectionPage title="Add promo code">
        <PromoCodeForm
          defaultValues={newDraft(promoCodeZone([], choices))}
          locations={choices}
          submitLabel="Add promo code"
          onSave={async (input) => {
            await createPromoCode(api, input);
            await navigate({ to: '/promo-codes', search: {} });
          }}
        />
      </SectionPage>
    );
  }
  const toggle = async () => {
    setBusy(true);
    setStatusError(null);
    try {
      await setPromoCodeActive(api, code.promo_code_id, { active: !code.active, version: code.version });
      setConfirming(false);
      await invalidatePromoCodes(router);
    } catch (error) {
      setStatusError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  // The code's clock: its locations' zone when they share one, else the viewer's.
  const timeZone = promoCodeZone(code.location_ids, locations);
  return (
    <SectionPage title={`Promo code ${code.code}`}>
      <p>
        Used {code.uses.toLocaleString('en-US')} times{code.remaining === null ? ' (no cap)' : `, ${code.remaining.toLocaleString('en-US')} left`}.{' '}
        {code.active ? 'Active.' : 'Deactivated.'}
      </p>
      <div className="record-layout">
        <div className="record-main">
          {canEdit ? (
            <>
              <PromoCodeForm
                key={code.version}
                defaultValues={draftOf(code, timeZone)}
                locations={[...choices, ...locations.filter((l) => code.location_ids.includes(l.location_id) && !choices.includes(l))]}
                submitLabel="Save changes"
                onSave={async (input) => {
                  setConflict(null);
                  await updatePromoCode(api, code.promo_code_id, { ...input, version: code.version });
                  await invalidatePromoCodes(router);
                }}
                onSaveFailed={(error) => {
                  const found = versionConflictOf(error);
                  setConflict(found);
                  return found !== null;
                }}
                notice={
                  conflict && (
                    <div className="form-error" role="alert">
                      Changed by {conflict.changedBy?.name ?? conflict.changedBy?.email ?? 'someone else'}
                      {conflict.changedAt && (
                        <>
                          {' '}
                          at <DateTime iso={conflict.changedAt} timeZone={timeZone} />
                        </>
                      )}{' '}
                      after you opened it; nothing was saved.{' '}
                      <button type="button" className="button" onClick={() => void invalidatePromoCodes(router).then(() => setConflict(null))}>
                        Reload their version
                      </button>
                    </div>
                  )
                }
              />
              <ConfirmDialog
                open={confirming}
                onOpenChange={setConfirming}
                trigger={
                  <button type="button" className={`button ${code.active ? 'danger' : ''}`}>
                    {code.active ? 'Deactivate' : 'Activate'}
                  </button>
                }
                title={code.active ? `Deactivate ${code.code}?` : `Activate ${code.code}?`}
                description={<p>{code.active ? 'Parkers can no longer use this code until it is activated again.' : 'Parkers can use this code again within its window.'}</p>}
                confirmLabel={code.active ? 'Deactivate' : 'Activate'}
                busyLabel="Saving…"
                destructive={code.active}
                busy={busy}
                error={statusError}
                onConfirm={() => void toggle()}
              />
            </>
          ) : (
            <>
              <PromoCodeSummary code={code} locations={locations} timeZone={timeZone} />
              <p>You may view this code; editing it needs promo-code edit permission at each of its locations.</p>
            </>
          )}
        </div>
        <PromoCodeHistory code={code} history={history} locations={locations} timeZone={timeZone} />
      </div>
    </SectionPage>
  );
}
