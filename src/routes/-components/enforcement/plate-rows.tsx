import { memo } from 'react';
import type { LocationRef } from '../../../permissions/permissions-object';
import type { BookingRow, MonthlyParkerRow, PlateRow, TransactionRow } from '../../../worker/enforcement-worker-api';
import { describeExpiry, formatAmount, formatInZone, maskPhone } from './enforcement-format';
import { PlateHighlight } from './plate-highlight';

interface RowProps<R> {
  row: R;
  location: LocationRef | undefined;
  query: string;
  now: number;
}

const zoneOf = (location: LocationRef | undefined) => location?.time_zone ?? 'UTC';

function RowHead({ row, location, query }: RowProps<PlateRow>) {
  const similar = 'match' in row && row.match === 'similar';
  return (
    <div className="plate-row-head">
      <PlateHighlight plate={row.license_plate} query={query} />
      {similar && <span className="badge badge-similar">Similar characters</span>}
      <span className="plate-row-location">{location?.name ?? `Location ${row.location_id}`}</span>
    </div>
  );
}

function TransactionDetails({ row, location, now }: RowProps<TransactionRow>) {
  const zone = zoneOf(location);
  return (
    <dl className="plate-row-details">
      <div>
        <dt>Expiry</dt>
        <dd>
          {formatInZone(row.expiry_date_time, zone)} <strong>({describeExpiry(row.expiry_date_time_unix, now)})</strong>
        </dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>{formatAmount(row.payment_amount)}</dd>
      </div>
      <div>
        <dt>Paid</dt>
        <dd>{formatInZone(row.payment_time, zone)}</dd>
      </div>
      <div>
        <dt>Phone</dt>
        <dd>{maskPhone(row.phone_number)}</dd>
      </div>
    </dl>
  );
}

function BookingDetails({ row, location, now }: RowProps<BookingRow>) {
  const zone = zoneOf(location);
  const expiryUnix = Math.floor(Date.parse(row.expiry_date_time) / 1000);
  return (
    <dl className="plate-row-details">
      <div>
        <dt>Source</dt>
        <dd>{row.category === 'spothero' ? 'SpotHero' : 'ParkWhiz'}</dd>
      </div>
      <div>
        <dt>Booking</dt>
        <dd>
          {formatInZone(row.created_at, zone)} – {formatInZone(row.expiry_date_time, zone)}{' '}
          {Number.isFinite(expiryUnix) && <strong>({describeExpiry(expiryUnix, now)})</strong>}
        </dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>{formatAmount(row.payment_amount)}</dd>
      </div>
    </dl>
  );
}

function MonthlyParkerDetails({ row }: RowProps<MonthlyParkerRow>) {
  return (
    <dl className="plate-row-details">
      <div>
        <dt>Name</dt>
        <dd>
          {row.fname} {row.lname}
        </dd>
      </div>
      <div>
        <dt>Parker</dt>
        <dd>{row.parkerStatus}</dd>
      </div>
      <div>
        <dt>Vehicle</dt>
        <dd>{row.vehicleStatus}</dd>
      </div>
      <div>
        <dt>Phones</dt>
        <dd>
          {[row.mobilephone, row.homephone, row.workphone]
            .filter(Boolean)
            .map(maskPhone)
            .join(', ') || '—'}
        </dd>
      </div>
    </dl>
  );
}

/** One search result: the plate with the matched part marked, where, and what the officer needs to decide. */
export const PlateRowCard = memo(function PlateRowCard(props: RowProps<PlateRow>) {
  const { row } = props;
  return (
    <li className={`plate-row plate-row-${row.category}`}>
      <RowHead {...props} />
      {(row.category === 'valid' || row.category === 'expired') && <TransactionDetails {...props} row={row} />}
      {(row.category === 'spothero' || row.category === 'parkwhiz') && <BookingDetails {...props} row={row} />}
      {row.category === 'monthly_parkers' && <MonthlyParkerDetails {...props} row={row} />}
    </li>
  );
});
