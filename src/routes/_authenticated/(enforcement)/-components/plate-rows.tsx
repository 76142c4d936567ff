import { memo, type ReactNode } from 'react';
import type { LocationRef } from '../../../../permissions/permissions-object';
import type { BookingRow, MonthlyParkerRow, PlateRow, TransactionRow } from '../../../../worker/enforcement-worker-api';
import { describeExpiry, formatAmount, formatInZone, maskPhone } from './enforcement-format';
import { PlateHighlight, swappedCharacters } from './plate-highlight';

interface RowProps<R> {
  row: R;
  location: LocationRef | undefined;
  query: string;
  now: number;
}

const zoneOf = (location: LocationRef | undefined) => location?.time_zone ?? 'UTC';

/** "0 typed, O on plate": what a similar match swapped. */
function describeSwaps(plate: string, query: string): string {
  return swappedCharacters(plate, query)
    .map(([typed, onPlate]) => `${typed} typed, ${onPlate} on plate`)
    .join('; ');
}

function RowHead({ row, location, query, status }: RowProps<PlateRow> & { status?: { label: string; active: boolean } }) {
  const similar = 'match' in row && row.match === 'similar';
  const swaps = similar ? describeSwaps(row.license_plate, query) : '';
  return (
    <div className="plate-row-head">
      <PlateHighlight plate={row.license_plate} query={query} />
      {status && <span className={`badge ${status.active ? 'badge-active' : 'badge-ended'}`}>{status.label}</span>}
      {similar && <span className="badge badge-similar">Similar characters{swaps ? `: ${swaps}` : ''}</span>}
      <span className="plate-row-location">{location?.name ?? `Location ${row.location_id}`}</span>
    </div>
  );
}

/** A label and its value on one line: two of them side by side on a 360 px phone. */
function Field({ label, wide, nowrap, children }: { label: string; wide?: boolean; nowrap?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? 'wide' : undefined}>
      <dt>{label}</dt>
      <dd className={nowrap ? 'nowrap' : undefined}>{children}</dd>
    </div>
  );
}

function TransactionDetails({ row, location, now }: RowProps<TransactionRow>) {
  const zone = zoneOf(location);
  return (
    <dl className="plate-row-details">
      <Field label="Expiry" wide>
        <time dateTime={row.expiry_date_time}>{formatInZone(row.expiry_date_time, zone)}</time>{' '}
        <strong>({describeExpiry(row.expiry_date_time_unix, now)})</strong>
      </Field>
      <Field label="Paid" wide>
        {formatInZone(row.payment_time, zone)}
      </Field>
      <Field label="Amount" nowrap>
        {formatAmount(row.payment_amount)}
      </Field>
      <Field label="Phone" nowrap>
        {maskPhone(row.phone_number)}
      </Field>
    </dl>
  );
}

function BookingDetails({ row, location, now }: RowProps<BookingRow>) {
  const zone = zoneOf(location);
  const expiryUnix = Math.floor(Date.parse(row.expiry_date_time) / 1000);
  return (
    <dl className="plate-row-details">
      <Field label="Booking" wide>
        {formatInZone(row.created_at, zone)} – <time dateTime={row.expiry_date_time}>{formatInZone(row.expiry_date_time, zone)}</time>{' '}
        {Number.isFinite(expiryUnix) && <strong>({describeExpiry(expiryUnix, now)})</strong>}
      </Field>
      <Field label="Source">{row.category === 'spothero' ? 'SpotHero' : 'ParkWhiz'}</Field>
      <Field label="Amount" nowrap>
        {formatAmount(row.payment_amount)}
      </Field>
    </dl>
  );
}

function MonthlyParkerDetails({ row }: RowProps<MonthlyParkerRow>) {
  return (
    <dl className="plate-row-details">
      <Field label="Name">
        {row.fname} {row.lname}
      </Field>
      <Field label="Vehicle">{row.vehicleStatus}</Field>
      <Field label="Phones" wide>
        {[row.mobilephone, row.homephone, row.workphone]
          .filter(Boolean)
          .map(maskPhone)
          .join(', ') || '—'}
      </Field>
    </dl>
  );
}

/** Active or ended for a booking, the parker status for a monthly parker: shown as a badge beside the plate. */
function statusOf(row: PlateRow, now: number): { label: string; active: boolean } | undefined {
  if (row.category === 'spothero' || row.category === 'parkwhiz') {
    const active = Date.parse(row.expiry_date_time) > now;
    return { label: active ? 'Active' : 'Ended', active };
  }
  if (row.category === 'monthly_parkers') {
    return { label: `Parker ${row.parkerStatus}`, active: row.parkerStatus.toLowerCase() === 'active' };
  }
  return undefined;
}

/** One search result: the plate with the matched part marked, where, and what the officer needs to decide. */
export const PlateRowCard = memo(function PlateRowCard(props: RowProps<PlateRow>) {
  const { row, now } = props;
  const status = statusOf(row, now);
  const ended = status !== undefined && !status.active;
  return (
    <li className={`plate-row plate-row-${row.category}${ended ? ' plate-row-ended' : ''}`}>
      <RowHead {...props} status={status} />
      {(row.category === 'valid' || row.category === 'expired') && <TransactionDetails {...props} row={row} />}
      {(row.category === 'spothero' || row.category === 'parkwhiz') && <BookingDetails {...props} row={row} />}
      {row.category === 'monthly_parkers' && <MonthlyParkerDetails {...props} row={row} />}
    </li>
  );
});
