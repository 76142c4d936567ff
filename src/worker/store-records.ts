import type {
  BookingRecord,
  MonthlyParkerRecord,
  SyncType,
  TransactionRecord,
} from '../contract/enforcement';
import type {
  BookingRow,
  MonthlyParkerRow,
  PlateMatchKind,
  PlateRow,
  SearchCategory,
  TransactionRow,
} from './enforcement-worker-api';
import type { IndexSource, PlateIndexEntry } from './plate-index';
import {
  SOURCE_OF_TYPE,
  type StoredBooking,
  type StoredMonthlyParker,
  type StoredRecord,
  type StoredTransaction,
} from './store';

/** From parsed server records to stored rows and plate index entries, and from stored rows to search rows. */

const UINT32_MAX = 0xffff_ffff;

function clampUint32(value: number): number {
  return Math.min(Math.max(Math.floor(value), 0), UINT32_MAX);
}

/** Booking expiry in unix seconds; 0 when the text is not a date (such a booking goes with the next purge). */
export function bookingExpiryUnix(expiryDateTime: string): number {
  const ms = Date.parse(expiryDateTime);
  return Number.isFinite(ms) ? clampUint32(ms / 1000) : 0;
}

export function recordKey(source: IndexSource, row: StoredRecord): number {
  return source === 'transactions' ? (row as StoredTransaction).transaction_id : (row as StoredBooking | StoredMonthlyParker).id;
}

/** The expiry the plate index and purge use: transactions' unix expiry, bookings' parsed one, 0 for parkers. */
export function recordExpiry(source: IndexSource, row: StoredRecord): number {
  switch (source) {
    case 'transactions':
      return clampUint32((row as StoredTransaction).expiry_date_time_unix);
    case 'spothero':
    case 'parkwhiz':
      return (row as StoredBooking).expiry_unix;
    case 'monthly_parkers':
      return 0;
  }
}

export function indexEntry(source: IndexSource, row: StoredRecord): PlateIndexEntry {
  return {
    source,
    key: recordKey(source, row),
    plate: row.license_plate,
    locationId: row.location_id,
    expiresAt: recordExpiry(source, row),
  };
}

function monthlyParkerIdentity(record: { location_id: number; parkerid: number; license_plate: string }): string {
  return `${record.location_id}\u0000${record.parkerid}\u0000${record.license_plate}`;
}

/**
 * Local ids of monthly parkers by (location, parker, plate). The server sends no id, and the plate index needs the
 * row's key as soon as a record is parsed, before it is written: so ids are assigned here, not by auto-increment.
 */
export class MonthlyParkerIds {
  readonly #ids = new Map<string, number>();
  #nextId = 1;

  /** Records an id already held (table or staged page). */
  hold(record: { location_id: number; parkerid: number; license_plate: string }, id: number): void {
    this.#ids.set(monthlyParkerIdentity(record), id);
    if (id >= this.#nextId) this.#nextId = id + 1;
  }

  assign(record: MonthlyParkerRecord): number {
    const identity = monthlyParkerIdentity(record);
    let id = this.#ids.get(identity);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(identity, id);
    }
    return id;
  }
}

export type ParsedRecord = TransactionRecord | BookingRecord | MonthlyParkerRecord;

/** What tells a record of a type apart in the server's order: its key, or (location, parker, plate) for parkers. */
export function recordIdentity(record: ParsedRecord): string {
  if ('transaction_id' in record) return String(record.transaction_id);
  if ('parkerid' in record) return monthlyParkerIdentity(record);
  return String(record.id);
}

export interface PreparedPage {
  type: SyncType;
  source: IndexSource;
  rows: StoredRecord[];
  keys: Float64Array;
  expiresAt: Uint32Array;
}

/**
 * Adds sync_time (and the booking expiry, and parker ids) to a page of parsed records, in place: the records are the
 * schema's output, owned by the page (a copy of each cost ~2–4 ms a page of 2000). Throws on a value the plate index
 * cannot hold, which fails the page like any malformed record.
 */
export function preparePage(
  type: SyncType,
  records: readonly ParsedRecord[],
  syncTime: number,
  monthlyParkerIds: MonthlyParkerIds | null,
): PreparedPage {
  const source = SOURCE_OF_TYPE[type];
  const rows: StoredRecord[] = new Array(records.length);
  const keys = new Float64Array(records.length);
  const expiresAt = new Uint32Array(records.length);
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.location_id > UINT32_MAX) throw new RangeError(`record ${i}: location_id ${record.location_id} is out of range`);
    let row: StoredRecord;
    switch (source) {
      case 'transactions': {
        const transaction = record as StoredTransaction;
        transaction.sync_time = syncTime;
        row = transaction;
        break;
      }
      case 'spothero':
      case 'parkwhiz': {
        const booking = record as StoredBooking;
        booking.sync_time = syncTime;
        booking.expiry_unix = bookingExpiryUnix(booking.expiry_date_time);
        row = booking;
        break;
      }
      case 'monthly_parkers': {
        if (monthlyParkerIds === null) throw new Error('monthly parker ids are not loaded');
        const parker = record as StoredMonthlyParker;
        parker.id = monthlyParkerIds.assign(parker);
        parker.sync_time = syncTime;
        row = parker;
        break;
      }
    }
    rows[i] = row;
    keys[i] = recordKey(source, row);
    expiresAt[i] = recordExpiry(source, row);
  }
  return { type, source, rows, keys, expiresAt };
}

export function pageEntries(page: PreparedPage): PlateIndexEntry[] {
  return page.rows.map((row) => indexEntry(page.source, row));
}

/**
 * All of a payment given back: the officer's verdict reads it as not paid. A partial refund still pays for the stay; a
 * record cached before refunds were synced has no refunded_amount (nothing refunded). Decided here, in the worker,
 * so that /list's bundle carries only the flag.
 */
export function fullyRefunded(record: TransactionRecord): boolean {
  const refunded = record.refunded_amount ?? 0;
  return refunded > 0 && refunded >= record.payment_amount;
}

/** The fields a search shows: the stored row without updated_at, sync_time and bookkeeping. */
export function toPlateRow(category: SearchCategory, row: StoredRecord, match: PlateMatchKind): PlateRow {
  switch (category) {
    case 'valid':
    case 'expired': {
      const t = row as StoredTransaction;
      const result: TransactionRow = {
        category,
        match,
        transaction_id: t.transaction_id,
        location_id: t.location_id,
        license_plate: t.license_plate,
        expiry_date_time: t.expiry_date_time,
        expiry_date_time_unix: t.expiry_date_time_unix,
        phone_number: t.phone_number,
        payment_time: t.payment_time,
        payment_amount: t.payment_amount,
        refunded: fullyRefunded(t),
      };
      return result;
    }
    case 'spothero':
    case 'parkwhiz': {
      const b = row as StoredBooking;
      const result: BookingRow = {
        category,
        match,
        id: b.id,
        location_id: b.location_id,
        license_plate: b.license_plate,
        expiry_date_time: b.expiry_date_time,
        created_at: b.created_at,
        payment_amount: b.payment_amount,
        payment_time: b.payment_time,
      };
      return result;
    }
    case 'monthly_parkers': {
      const m = row as StoredMonthlyParker;
      const result: MonthlyParkerRow = {
        category,
        match,
        id: m.id,
        location_id: m.location_id,
        license_plate: m.license_plate,
        vehicleStatus: m.vehicleStatus,
        parkerid: m.parkerid,
        fname: m.fname,
        lname: m.lname,
        homephone: m.homephone,
        mobilephone: m.mobilephone,
        workphone: m.workphone,
        parkerStatus: m.parkerStatus,
      };
      return result;
    }
  }
}
