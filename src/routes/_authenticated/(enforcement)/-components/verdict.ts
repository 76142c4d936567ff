import type { LocationRef } from '../../../../permissions/permissions-object';
import { SEARCH_CATEGORIES, type BookingRow, type PlateRow, type PlateSearchResult, type TransactionRow } from '../../../../worker/enforcement-worker-api';
import { verdictRows } from '../../../../worker/first-paint';
import { formatDuration, formatInZone } from './enforcement-format';

/** ok: no ticket (paid, booked, active monthly parker); stop: expired or nothing found; warn: look closer; info: keep typing. */
export type VerdictTone = 'ok' | 'warn' | 'stop' | 'info';

export interface Verdict {
  tone: VerdictTone;
  /** One or two words, shown large: PAID, BOOKED, MONTHLY PARKER, EXPIRED, BOOKING ENDED, NO RECORD… */
  headline: string;
  /** The rest of the line: until when, since when, where. */
  detail: string;
  /** Nothing matched with similar characters off: offer to turn them on. */
  suggestSimilar: boolean;
}

export interface VerdictInput {
  query: string;
  result: PlateSearchResult;
  /** Epoch ms the answer was computed for. */
  now: number;
  similar: boolean;
  locations: ReadonlyMap<number, LocationRef>;
  /** "Data synced 4 min ago." for "no record". */
  dataAge: string;
}

const SOURCE_LABEL = { spothero: 'SpotHero', parkwhiz: 'ParkWhiz' } as const;

function where(row: PlateRow, locations: ReadonlyMap<number, LocationRef>): string {
  return locations.get(row.location_id)?.name ?? `Location ${row.location_id}`;
}

function at(iso: string, row: PlateRow, locations: ReadonlyMap<number, LocationRef>): string {
  return formatInZone(iso, locations.get(row.location_id)?.time_zone ?? 'UTC');
}

const bookingEnd = (row: BookingRow): number => Date.parse(row.expiry_date_time);

/**
 * What the officer must know about the typed plate, in one line (verdict first, detail below it). It speaks about one
 * plate (`verdictRows`): the rows whose plate is exactly what was typed, else the exact matches when they are all one
 * plate. Several different plates containing the text get "keep typing"; similar-only matches a warning; nothing at
 * all "no record".
 * Priority, from what lets the car stay to what gets a ticket: paid and valid, an active booking, a monthly parker,
 * expired, a booking that ended. Rows arrive ranked (valid soonest expiry first, expired most recent first, bookings
 * active first), so the first row of a kind is the one to tell.
 */
export function verdictFor({ query, result, now, similar, locations, dataAge }: VerdictInput): Verdict {
  let total = 0;
  let exactTotal = 0;
  for (const category of SEARCH_CATEGORIES) {
    total += result[category].total;
    exactTotal += result[category].exactTotal;
  }
  if (total === 0) {
    return {
      tone: 'stop',
      headline: 'NO RECORD',
      detail: `No record matches “${query}”. ${dataAge}${similar ? '' : ' Similar characters are off.'}`,
      suggestSimilar: !similar,
    };
  }
  if (exactTotal === 0) {
    return {
      tone: 'warn',
      headline: 'NO EXACT MATCH',
      detail: `${total.toLocaleString('en-US')} similar ${total === 1 ? 'plate' : 'plates'} below: check the characters.`,
      suggestSimilar: false,
    };
  }
  const rows = verdictRows(query, result);
  if (rows.length === 0) {
    return {
      tone: 'info',
      headline: `${exactTotal.toLocaleString('en-US')} MATCHES`,
      detail: 'Several plates contain this: type more of the plate.',
      suggestSimilar: false,
    };
  }
  const plate = rows[0]!.license_plate;
  const nowSeconds = now / 1000;
  const valid = rows.find((row): row is TransactionRow => row.category === 'valid');
  if (valid) {
    return {
      tone: 'ok',
      headline: 'PAID',
      detail: `${plate} valid until ${at(valid.expiry_date_time, valid, locations)} (${formatDuration(valid.expiry_date_time_unix * 1000 - now)} left) · ${where(valid, locations)}`,
      suggestSimilar: false,
    };
  }
  const bookings = rows.filter((row): row is BookingRow => row.category === 'spothero' || row.category === 'parkwhiz');
  const active = bookings.find((row) => bookingEnd(row) / 1000 > nowSeconds);
  if (active) {
    return {
      tone: 'ok',
      headline: 'BOOKED',
      detail: `${plate} on ${SOURCE_LABEL[active.category]} until ${at(active.expiry_date_time, active, locations)} (${formatDuration(bookingEnd(active) - now)} left) · ${where(active, locations)}`,
      suggestSimilar: false,
    };
  }
  const monthly = rows.find((row) => row.category === 'monthly_parkers');
  if (monthly && monthly.category === 'monthly_parkers') {
    const isActive = monthly.parkerStatus.toLowerCase() === 'active';
    return {
      tone: isActive ? 'ok' : 'warn',
      headline: 'MONTHLY PARKER',
      detail: `${plate} · parker ${monthly.parkerStatus}, vehicle ${monthly.vehicleStatus} · ${where(monthly, locations)}`,
      suggestSimilar: false,
    };
  }
  const expired = rows.find((row): row is TransactionRow => row.category === 'expired');
  if (expired) {
    return {
      tone: 'stop',
      headline: 'EXPIRED',
      detail: `${plate} expired ${formatDuration(now - expired.expiry_date_time_unix * 1000)} ago (${at(expired.expiry_date_time, expired, locations)}) · ${where(expired, locations)}`,
      suggestSimilar: false,
    };
  }
  const ended = bookings[0]!;
  return {
    tone: 'stop',
    headline: 'BOOKING ENDED',
    detail: `${plate} on ${SOURCE_LABEL[ended.category]} ended ${formatDuration(now - bookingEnd(ended))} ago (${at(ended.expiry_date_time, ended, locations)}) · ${where(ended, locations)}`,
    suggestSimilar: false,
  };
}
