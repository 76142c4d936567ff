import type { PromoCode } from '../../../../contract/promo-codes';
import type { LocationRef } from '../../../../permissions/permissions-object';
import { DateTime } from '../../../../ui/date-time';
import { Discount } from './discount';

/** A promo code read only (for a user who may view but not edit it): money in dollars, times on the code's clock. */
export function PromoCodeSummary({ code, locations, timeZone }: { code: PromoCode; locations: readonly LocationRef[]; timeZone: string }) {
  const names = code.location_ids.map((id) => locations.find((location) => location.location_id === id)?.name ?? `Location ${id}`);
  return (
    <dl className="details-list">
      <dt>Discount</dt>
      <dd>
        <Discount code={code} />
      </dd>
      <dt>Use</dt>
      <dd>{code.multi_use ? 'Multi use' : 'Single use'}</dd>
      <dt>Total cap</dt>
      <dd>{code.total_cap === null ? 'No cap' : code.total_cap.toLocaleString('en-US')}</dd>
      <dt>Per-plate cap</dt>
      <dd>{code.per_plate_cap === null ? 'No cap' : code.per_plate_cap.toLocaleString('en-US')}</dd>
      <dt>Valid</dt>
      <dd>
        <DateTime iso={code.valid_from} timeZone={timeZone} /> to <DateTime iso={code.valid_to} timeZone={timeZone} />
      </dd>
      <dt>Locations</dt>
      <dd>{names.join(', ')}</dd>
    </dl>
  );
}
