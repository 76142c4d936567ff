import type { LocationRef } from '../../../../permissions/permissions-object';
import { SEARCH_CATEGORIES, type BookingRow, type MonthlyParkerRow, type PlateRow, type PlateSearchResult, type TransactionRow } from '../../../../worker/enforcement-worker-api';
import { verdictRows } from '../../../../worker/first-paint';
import { formatDuration, formatInZone } from './enforcement-format';

/** ok: no ticket (paid, booked, active monthly parker); stop: expired or nothing found; warn: look closer; info: keep typing. */
export type VerdictTone = 'ok' | 'warn' | 'stop' | 'info';

export interface Verdict {
  tone: VerdictTone;
  /** One or two words, shown large: PAID, BOOKED, MONTHLY PARKER, REFUNDED, EXPIRED, BOOKING ENDED, NO RECORD… */
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

/** One verdict; only "no record" may offer similar characters. */
const said = (tone: VerdictTone, headline: string, detail: string, suggestSimilar = false): Verdict =>
  ({ tone, headline, detail, suggestSimilar });

/**
 * What the officer must know about the typed plate, in one line (verdict first, detail below it). It speaks about one
 * plate (`verdictRows`): the rows whose plate is exactly what was typed, else the exact matches when they are all one
 * plate. Several different plates containing the text get "keep typing"; similar-only matches a warning; nothing at
 * all "no record".
 * Priority, from what lets the car stay to what gets a ticket: paid and valid, an active booking, a monthly parker,
 * a valid payment refunded in full (the worker's `refunded`), expired, a booking that ended. Rows arrive ranked
 * (valid soonest expiry first, expired most recent first, bookings active first), so the first row of a kind is the
 * one to tell.
 */
export function verdictFor({ query, result, now, similar, locations, dataAge }: VerdictInput): Verdict {
  let total = 0;
  let exactTotal = 0;
  for (const category of SEARCH_CATEGORIES) {
    total += result[category].total;
    exactTotal += result[category].exactTotal;
  }
  if (total === 0) {
    return said('stop', 'NO RECORD', `No record matches “${query}”. ${dataAge}${similar ? '' : ' Similar characters are off.'}`, !similar);
  }
  if (exactTotal === 0) {
    return said('warn', 'NO EXACT MATCH', `${total.toLocaleString('en-US')} similar ${total === 1 ? 'plate' : 'plates'} below: check the characters.`);
  }
  const rows = verdictRows(query, result);
  if (rows.length === 0) {
    return said('info', `${exactTotal.toLocaleString('en-US')} MATCHES`, 'Several plates contain this: type more of the plate.');
  }
  const plate = rows[0]!.license_plate;
  const nowSeconds = now / 1000;
  const payments = rows.filter((row): row is TransactionRow => row.category === 'valid');
  const valid = payments.find((row) => !row.refunded);
  if (valid) {
    return said('ok', 'PAID', `${plate} valid until ${at(valid.expiry_date_time, valid, locations)} (${formatDuration(valid.expiry_date_time_unix * 1000 - now)} left) · ${where(valid, locations)}`);
  }
  const bookings = rows.filter((row): row is BookingRow => row.category === 'spothero' || row.category === 'parkwhiz');
  const active = bookings.find((row) => bookingEnd(row) / 1000 > nowSeconds);
  if (active) {
    return said('ok', 'BOOKED', `${plate} on ${SOURCE_LABEL[active.category]} until ${at(active.expiry_date_time, active, locations)} (${formatDuration(bookingEnd(active) - now)} left) · ${where(active, locations)}`);
  }
  const monthly = rows.find((row): row is MonthlyParkerRow => row.category === 'monthly_parkers');
  if (monthly) {
    const isActive = monthly.parkerStatus.toLowerCase() === 'active';
    return said(isActive ? 'ok' : 'warn', 'MONTHLY PARKER', `${plate} · parker ${monthly.parkerStatus}, vehicle ${monthly.vehicleStatus} · ${where(monthly, locations)}`);
  }
  // Valid payments left here were all refunded in full.
  if (payments[0]) return said('stop', 'REFUNDED', `${plate} · payment refunded · ${where(payments[0], locations)}`);
  const expired = rows.find((row): row is TransactionRow => row.category === 'expired');
  if (expired) {
    return said('stop', 'EXPIRED', `${plate} expired ${formatDuration(now - expired.expiry_date_time_unix * 1000)} ago (${at(expired.expiry_date_time, expired, locations)}) · ${where(expired, locations)}`);
  }
  const ended = bookings[0]!;
  return said('stop', 'BOOKING ENDED', `${plate} on ${SOURCE_LABEL[ended.category]} ended ${formatDuration(now - bookingEnd(ended))} ago (${at(ended.expiry_date_time, ended, locations)}) · ${where(ended, locations)}`);
}
