import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import {
  ENFORCEMENT_TRANSACTIONS_PATH,
  enforcementRequestSchema,
  PURGE_AFTER_SECONDS,
  type BookingRecord,
  type EnforcementRequest,
  type MonthlyParkerRecord,
  type SyncType,
  type TransactionRecord,
} from '../../../src/contract/enforcement';
import type { IndexedDbFactory } from '../../../src/worker/store';

/**
 * An in-memory implementation of POST /enforcement/transactions (spec §7) for the worker's tests: filter by type
 * and location, order by (updated_at, key), updated_at ≥ ms / 1000, then offset and limit. Faults can be injected
 * per request.
 */

export const API_BASE = 'https://api.test/api';
export const ID_TOKEN = 'firebase-id-token';

/** Seeded PRNG (mulberry32), so every schedule can be replayed from its seed. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const PLATE_CHARS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';
export function randomPlate(random: () => number): string {
  const length = 5 + Math.floor(random() * 3);
  let plate = '';
  for (let i = 0; i < length; i++) plate += PLATE_CHARS[Math.floor(random() * PLATE_CHARS.length)];
  return plate;
}

export type MonthlyParkerOnServer = MonthlyParkerRecord & { serverKey: number };

export interface ServerData {
  transactions: TransactionRecord[];
  spothero: BookingRecord[];
  parkwhiz: BookingRecord[];
  monthly_parkers: MonthlyParkerOnServer[];
}

export function emptyServerData(): ServerData {
  return { transactions: [], spothero: [], parkwhiz: [], monthly_parkers: [] };
}

export type Fault = 'http500' | 'malformed' | 'hang' | 'truncate' | 'tokenExpired' | 'networkError';

export interface ServerCall {
  n: number;
  request: EnforcementRequest;
  url: string;
  headers: Headers;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export class FakeEnforcementServer {
  data: ServerData = emptyServerData();
  nowSeconds: number;
  readonly calls: ServerCall[] = [];
  /** Decides a fault per call; null for a correct answer. */
  fault: (call: ServerCall) => Fault | null = () => null;
  /** Called before answering; may delay the answer (e.g. to hold a page). */
  beforeAnswer: (call: ServerCall) => Promise<void> | void = () => undefined;
  #nextKey = 1;
  #random: () => number;

  constructor(options: { nowSeconds: number; seed?: number }) {
    this.nowSeconds = options.nowSeconds;
    this.#random = prng(options.seed ?? 1);
  }

  nextKey(): number {
    return this.#nextKey++;
  }

  transaction(fields: Partial<TransactionRecord> = {}): TransactionRecord {
    const expiry = fields.expiry_date_time_unix ?? this.nowSeconds + Math.floor((this.#random() - 0.5) * 4 * 86_400);
    const record: TransactionRecord = {
      transaction_id: this.nextKey(),
      location_id: 1,
      license_plate: randomPlate(this.#random),
      expiry_date_time: iso(expiry),
      expiry_date_time_unix: expiry,
      phone_number: this.#random() < 0.5 ? null : `+1312555${String(Math.floor(this.#random() * 10_000)).padStart(4, '0')}`,
      payment_time: iso(expiry - 3600),
      payment_amount: Math.round(this.#random() * 4000) / 100,
      updated_at: this.nowSeconds - 86_400,
      ...fields,
    };
    this.data.transactions.push(record);
    return record;
  }

  booking(source: 'spothero' | 'parkwhiz', fields: Partial<BookingRecord> & { expiry?: number } = {}): BookingRecord {
    const { expiry: givenExpiry, ...rest } = fields;
    const expiry = givenExpiry ?? this.nowSeconds + Math.floor((this.#random() - 0.3) * 4 * 86_400);
    const record: BookingRecord = {
      id: this.nextKey(),
      license_plate: randomPlate(this.#random),
      location_id: 1,
      expiry_date_time: iso(expiry),
      created_at: iso(expiry - 7200),
      payment_amount: Math.round(this.#random() * 4000) / 100,
      payment_time: iso(expiry - 7200),
      updated_at: this.nowSeconds - 86_400,
      ...rest,
    };
    this.data[source].push(record);
    return record;
  }

  monthlyParker(fields: Partial<MonthlyParkerRecord> = {}): MonthlyParkerOnServer {
    const record: MonthlyParkerOnServer = {
      serverKey: this.nextKey(),
      license_plate: randomPlate(this.#random),
      location_id: 1,
      vehicleStatus: 'active',
      parkerid: 1000 + Math.floor(this.#random() * 1_000_000),
      fname: 'Pat',
      lname: 'Parker',
      homephone: null,
      mobilephone: '+13125550100',
      workphone: null,
      parkerStatus: 'current',
      updated_at: this.nowSeconds - 86_400,
      ...fields,
    };
    this.data.monthly_parkers.push(record);
    return record;
  }

  /** The records a type holds for `locations` (what a complete sync should store), in server order. */
  expected(type: SyncType, locations: readonly number[]): unknown[] {
    return this.select(type, locations).map((record) => this.#strip(record));
  }

  #strip(record: TransactionRecord | BookingRecord | MonthlyParkerOnServer): unknown {
    if ('serverKey' in record) {
      const { serverKey: _serverKey, ...rest } = record;
      return rest;
    }
    return { ...record };
  }

  #key(record: TransactionRecord | BookingRecord | MonthlyParkerOnServer): number {
    if ('serverKey' in record) return record.serverKey;
    if ('transaction_id' in record) return record.transaction_id;
    return record.id;
  }

  select(type: SyncType, locations: readonly number[]): (TransactionRecord | BookingRecord | MonthlyParkerOnServer)[] {
    const wanted = new Set(locations);
    let records: (TransactionRecord | BookingRecord | MonthlyParkerOnServer)[];
    switch (type) {
      case 'valid':
        records = this.data.transactions.filter((t) => t.expiry_date_time_unix > this.nowSeconds);
        break;
      case 'expired':
        records = this.data.transactions.filter(
          (t) => t.expiry_date_time_unix <= this.nowSeconds && t.expiry_date_time_unix >= this.nowSeconds - PURGE_AFTER_SECONDS,
        );
        break;
      default:
        records = this.data[type];
    }
    return records
      .filter((record) => wanted.has(record.location_id))
      .sort((a, b) => a.updated_at - b.updated_at || this.#key(a) - this.#key(b));
  }

  answer(request: EnforcementRequest): unknown[] {
    let records = this.select(request.type, request.locationId);
    if (request.updated_at !== undefined) {
      const since = request.updated_at / 1000;
      records = records.filter((record) => record.updated_at >= since);
    }
    const offset = request.offset ?? 0;
    return records.slice(offset, offset + request.limit).map((record) => this.#strip(record));
  }

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    const url = String(input);
    const headers = new Headers(init?.headers);
    if (!url.startsWith(`${API_BASE}${ENFORCEMENT_TRANSACTIONS_PATH}`) || init?.method !== 'POST') {
      return json({ success: false, message: `Not found: ${url}` }, 404);
    }
    const request = enforcementRequestSchema.parse(JSON.parse(String(init.body)));
    const queryType = new URL(url).searchParams.get('type');
    if (queryType !== request.type) return json({ success: false, message: 'type mismatch' }, 400);
    const call: ServerCall = { n: this.calls.length + 1, request, url, headers };
    this.calls.push(call);
    await this.beforeAnswer(call);
    if (headers.get('Authorization') !== `Bearer ${ID_TOKEN}`) {
      return json({ success: false, message: 'No token provided', error: 'NoTokenProvided' }, 401);
    }
    const fault = this.fault(call);
    const signal = init.signal;
    switch (fault) {
      case 'http500':
        return json({ success: false, message: 'Internal error' }, 500);
      case 'tokenExpired':
        return json({ success: false, message: 'Session expired', error: 'TokenExpired' }, 401);
      case 'networkError':
        throw new TypeError('fetch failed');
      case 'hang':
        return new Promise<Response>((_, reject) => {
          const abort = () => reject(signal?.reason ?? new DOMException('aborted', 'AbortError'));
          if (signal?.aborted) abort();
          signal?.addEventListener('abort', abort, { once: true });
        });
      default:
        break;
    }
    const data = this.answer(request);
    if (fault === 'malformed' && data.length > 0) {
      const at = Math.floor(this.#random() * data.length);
      data[at] = { ...(data[at] as object), license_plate: 12345 };
    }
    const body = JSON.stringify({ success: true, data });
    if (fault === 'truncate') return new Response(body.slice(0, Math.floor(body.length * this.#random())), { status: 200 });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
  };
}

function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** A private IndexedDB per test. */
export function freshIndexedDb(): IndexedDbFactory {
  return { indexedDB: new IDBFactory(), IDBKeyRange };
}

export function auth(sessionToken: string | null = 'session-token') {
  return { getIdToken: async () => ID_TOKEN, sessionToken };
}
