import {
  SYNC_TYPES,
  type BookingRecord,
  type MonthlyParkerRecord,
  type SyncType,
  type TransactionRecord,
} from '../../../src/contract/enforcement';
import type { Db, Queryable } from '../db';
import { DEMO_LOCATIONS } from './demo-locations';
import { createRandom, type Random } from './prng';
import { FIRST_NAMES, LAST_NAMES, randomPhone } from './us-contacts';
import { randomPlate, registrationState } from './us-plates';

/**
 * Realistic enforcement data for development, tests and benchmarks: paid transactions (valid and expired), SpotHero
 * and ParkWhiz bookings, and monthly parkers, in exactly the shapes POST /enforcement/transactions returns them.
 *
 * `generateEnforcementRecords` is pure: the same options give the same records, whatever the machine.
 * `generateEnforcementData` writes them into a database (`npm run seed`, server/cli/seed.ts).
 *
 * Shape of the data:
 * - valid: expiry within the next 24 h, paid within the last 24 h (a few long stays paid earlier).
 * - expired: expiry within the last 30 days, so about a third is past the 21-day window the sync serves.
 * - bookings: expiry from 30 days ago to 24 h ahead, booked minutes to two weeks before they start.
 * - monthly parkers: one to three vehicles per parker, some at two locations; some updated today.
 * - Payments follow the day (few at night, in each location's time zone); amounts $2–$60.
 * - A pool of regulars: the same plates come back across types and locations.
 * - updated_at ties: updates are stamped on a grid so that on average `tieSize` records share one second, as a
 *   batch import does; 3–4 % are touched again long after payment (corrections, extensions).
 */

export type SyncRecordOf<T extends SyncType> = T extends 'valid' | 'expired'
  ? TransactionRecord
  : T extends 'spothero' | 'parkwhiz'
    ? BookingRecord
    : MonthlyParkerRecord;
export type GeneratedRecord = { [T in SyncType]: { type: T; record: SyncRecordOf<T> } }[SyncType];
export type EnforcementDataset = { [T in SyncType]: SyncRecordOf<T>[] };
export type TypeCounts = Record<SyncType, number>;

/** What the generator needs to know of a location; ids of demo locations are looked up in DEMO_LOCATIONS. */
export interface SeedLocation {
  location_id: number;
  address?: string;
  time_zone?: string;
  capacity?: number;
}

export interface FirstIds {
  transaction: number;
  spothero: number;
  parkwhiz: number;
  parker: number;
}

export interface EnforcementRecordOptions {
  counts: TypeCounts;
  locations: readonly (number | SeedLocation)[];
  seed?: string | number;
  /** How many records share one updated_at, on average. */
  tieSize?: number;
  /** "Now" of the data (ms or Date): valid ones expire after it. Default: the real clock. */
  now?: number | Date;
  /** Where ids start, so that data added to existing data never collides (the loader reads them from the db). */
  firstIds?: Partial<FirstIds>;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_TIE_SIZE = 25;
export const DEFAULT_RECORDS = 500;
export const DEFAULT_FIRST_IDS: FirstIds = { transaction: 100_001, spothero: 40_000_001, parkwhiz: 7_000_001, parker: 5001 };

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;

/** An even split of `total` over the five types (the first types get the remainder). */
export function splitRecords(total: number): TypeCounts {
  const share = Math.floor(total / SYNC_TYPES.length);
  const remainder = total - share * SYNC_TYPES.length;
  return Object.fromEntries(SYNC_TYPES.map((type, index) => [type, share + (index < remainder ? 1 : 0)])) as TypeCounts;
}

interface LocationProfile {
  location_id: number;
  state: string | undefined;
  /** Offset of the location's time zone from UTC at "now", in seconds (DST changes within 30 days are ignored). */
  utcOffset: number;
  hourlyRate: number;
  dailyMax: number;
  weight: number;
}

function utcOffsetSeconds(timeZone: string | undefined, at: Date): number {
  if (!timeZone) return -6 * HOUR;
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((part) => part.type === 'timeZoneName')?.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
    if (!match) return 0;
    return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * HOUR + Number(match[3]) * MINUTE);
  } catch {
    return -6 * HOUR;
  }
}

function locationProfile(location: number | SeedLocation, now: Date): LocationProfile {
  const known = DEMO_LOCATIONS.find(
    (demo) => demo.location_id === (typeof location === 'number' ? location : location.location_id),
  );
  const merged: SeedLocation = typeof location === 'number' ? (known ?? { location_id: location }) : { ...known, ...location };
  const id = merged.location_id;
  return {
    location_id: id,
    state: /,\s*([A-Z]{2})\s+\d{5}/.exec(merged.address ?? '')?.[1],
    utcOffset: utcOffsetSeconds(merged.time_zone, now),
    // Stable per location: $3–$8 an hour, a daily maximum of $20–$44.
    hourlyRate: 3 + ((id * 37) % 6),
    dailyMax: 20 + ((id * 13) % 5) * 6,
    weight: Math.max(50, merged.capacity ?? 300),
  };
}

/** Relative activity per local hour: quiet nights, busy days. */
const HOUR_WEIGHTS = [
  0.12, 0.08, 0.06, 0.05, 0.06, 0.15, 0.35, 0.6, 0.85, 0.95, 1, 1, 1, 1, 0.95, 0.95, 0.9, 0.9, 0.85, 0.75, 0.6, 0.45,
  0.3, 0.2,
];

/** A second in [start, end) drawn with the day's rhythm at that location. */
function daytimeSecond(random: Random, start: number, end: number, utcOffset: number): number {
  let second = start;
  for (let attempt = 0; attempt < 8; attempt++) {
    second = start + Math.floor(random.next() * (end - start));
    const localHour = Math.floor((((second + utcOffset) % DAY) + DAY) % DAY / HOUR);
    if (random.next() < HOUR_WEIGHTS[localHour]!) break;
  }
  return second;
}

/**
 * updated_at as a feed writes it: every change in a window is stamped with the window's end, so `tieSize` records
 * share a second on average when changes are spread over `span` seconds. Never later than now.
 */
function tieGrid(random: Random, span: number, count: number, tieSize: number, now: number) {
  // Tie size 1: each change keeps its own second, so only coincidences tie.
  if (tieSize <= 1) return (second: number) => Math.min(now, second);
  const step = Math.max(1, Math.round((span * tieSize) / Math.max(count, 1)));
  const phase = random.int(0, step - 1);
  return (second: number) => Math.min(now, Math.ceil((second - phase) / step) * step + phase);
}

const iso = (second: number) => new Date(second * 1000).toISOString();
const cents = (amount: number) => Math.round(amount * 100) / 100;

const PARKING_DURATIONS: readonly (readonly [number, number])[] = [
  [30 * MINUTE, 10],
  [HOUR, 25],
  [2 * HOUR, 25],
  [3 * HOUR, 12],
  [4 * HOUR, 10],
  [8 * HOUR, 8],
  [12 * HOUR, 5],
  [DAY, 5],
];
const BOOKING_DURATIONS: readonly (readonly [number, number])[] = [
  [2 * HOUR, 10],
  [3 * HOUR, 20],
  [4 * HOUR, 20],
  [6 * HOUR, 15],
  [8 * HOUR, 12],
  [10 * HOUR, 10],
  [12 * HOUR, 8],
  [DAY, 5],
];

/** Paid per started half hour at the location's rate, capped per day, sometimes with a $0.35 convenience fee. */
function parkingAmount(random: Random, location: LocationProfile, seconds: number): number {
  const days = Math.max(1, Math.ceil(seconds / DAY));
  const halfHours = Math.max(1, Math.ceil(seconds / (30 * MINUTE)));
  const amount = Math.min(location.dailyMax * days, (halfHours * location.hourlyRate) / 2);
  return cents(Math.min(60, Math.max(2, amount + (random.chance(0.5) ? 0.35 : 0))));
}

/** Flat prices as the booking apps sell them, a little more for longer stays. */
function bookingAmount(random: Random, seconds: number): number {
  const base = seconds <= 4 * HOUR ? random.int(8, 18) : seconds <= 12 * HOUR ? random.int(14, 32) : random.int(24, 45);
  const ending = random.weighted([
    [0, 5],
    [0.5, 2],
    [0.99, 2],
  ] as const);
  return cents(Math.min(60, Math.max(2, base + ending)));
}

interface Vehicle {
  plate: string;
  state: string;
}

class Generation {
  readonly now: number;
  readonly tieSize: number;
  readonly locations: LocationProfile[];
  private readonly cumulativeWeights: number[];
  private readonly regulars: Vehicle[];

  constructor(
    readonly options: EnforcementRecordOptions,
    readonly seed: string | number,
  ) {
    const nowDate = options.now === undefined ? new Date() : new Date(options.now);
    this.now = Math.floor(nowDate.getTime() / 1000);
    this.tieSize = Math.max(1, options.tieSize ?? DEFAULT_TIE_SIZE);
    if (options.locations.length === 0) throw new Error('Enforcement data needs at least one location.');
    this.locations = options.locations.map((location) => locationProfile(location, nowDate));
    let sum = 0;
    this.cumulativeWeights = this.locations.map((location) => (sum += location.weight));
    // Regulars: cars that come back, across types and locations. Earlier ones come back more often.
    const poolRandom = createRandom(`${seed}:regulars`);
    const total = SYNC_TYPES.reduce((count, type) => count + options.counts[type], 0);
    this.regulars = Array.from({ length: Math.min(100_000, Math.max(10, Math.round(total / 5))) }, () =>
      this.newVehicle(poolRandom, this.pickLocation(poolRandom)),
    );
  }

  random(type: SyncType): Random {
    return createRandom(`${this.seed}:${type}`);
  }

  pickLocation(random: Random): LocationProfile {
    const roll = random.next() * this.cumulativeWeights[this.cumulativeWeights.length - 1]!;
    let low = 0;
    let high = this.cumulativeWeights.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.cumulativeWeights[middle]! > roll) high = middle;
      else low = middle + 1;
    }
    return this.locations[low]!;
  }

  newVehicle(random: Random, location: LocationProfile): Vehicle {
    const state = registrationState(random, location.state);
    return { plate: randomPlate(random, state), state };
  }

  vehicle(random: Random, location: LocationProfile, regularShare: number): Vehicle {
    if (!random.chance(regularShare)) return this.newVehicle(random, location);
    const skew = random.next();
    return this.regulars[Math.floor(skew * skew * this.regulars.length)]!;
  }
}

function* transactions(
  generation: Generation,
  kind: 'valid' | 'expired',
  count: number,
  firstId: number,
): Generator<TransactionRecord> {
  const random = generation.random(kind);
  const { now } = generation;
  const span = kind === 'valid' ? DAY : 30 * DAY;
  const stamp = tieGrid(random, span, count, generation.tieSize, now);
  for (let index = 0; index < count; index++) {
    const location = generation.pickLocation(random);
    const vehicle = generation.vehicle(random, location, 0.35);
    const late = random.chance(0.03);
    let touched: number;
    let payment: number;
    let duration: number;
    if (kind === 'valid') {
      touched = daytimeSecond(random, now - DAY, now + 1, location.utcOffset);
      payment = touched - (late ? random.int(10 * MINUTE, 6 * HOUR) : random.int(0, 90));
      // Still running: at least a minute left.
      const atLeast = now - payment + MINUTE;
      const options = PARKING_DURATIONS.filter(([seconds]) => seconds >= atLeast);
      duration = options.length > 0 ? random.weighted(options) : atLeast + random.int(0, 4 * HOUR);
    } else {
      touched = daytimeSecond(random, now - 30 * DAY + 3 * HOUR, now - 10 * MINUTE, location.utcOffset);
      payment = touched - (late ? random.int(10 * MINUTE, 3 * HOUR) : random.int(0, 90));
      const atMost = now - payment;
      const options = PARKING_DURATIONS.filter(([seconds]) => seconds <= atMost);
      duration = options.length > 0 ? random.weighted(options) : random.int(5 * MINUTE, atMost);
    }
    const expiry = payment + duration;
    yield {
      transaction_id: firstId + index,
      location_id: location.location_id,
      license_plate: vehicle.plate,
      expiry_date_time: iso(expiry),
      expiry_date_time_unix: expiry,
      phone_number: random.chance(0.65) ? randomPhone(random, vehicle.state) : null,
      payment_time: iso(payment),
      payment_amount: parkingAmount(random, location, duration),
      refunded_amount: 0,
      updated_at: stamp(touched),
    };
  }
}

function* bookings(
  generation: Generation,
  source: 'spothero' | 'parkwhiz',
  count: number,
  firstId: number,
): Generator<BookingRecord> {
  const random = generation.random(source);
  const { now } = generation;
  const stamp = tieGrid(random, 44 * DAY, count, generation.tieSize, now);
  let id = firstId;
  for (let index = 0; index < count; index++) {
    const location = generation.pickLocation(random);
    const vehicle = generation.vehicle(random, location, 0.35);
    const expiry = daytimeSecond(random, now - 30 * DAY + 1, now + DAY + 1, location.utcOffset);
    const duration = random.weighted(BOOKING_DURATIONS);
    const lead = random.weighted([
      [() => random.int(10 * MINUTE, 3 * HOUR), 35],
      [() => random.int(3 * HOUR, 3 * DAY), 45],
      [() => random.int(3 * DAY, 14 * DAY), 20],
    ] as const)();
    // Booked before it starts, and never in the future.
    const created = Math.min(expiry - duration - lead, now - random.int(2 * MINUTE, HOUR));
    const payment = created + random.int(2, 90);
    const touched = Math.min(now, random.chance(0.04) ? payment + random.int(HOUR, 2 * DAY) : payment + random.int(0, 120));
    yield {
      id,
      license_plate: vehicle.plate,
      location_id: location.location_id,
      expiry_date_time: iso(expiry),
      created_at: iso(created),
      payment_amount: bookingAmount(random, duration),
      payment_time: iso(payment),
      updated_at: stamp(touched),
    };
    // Ids of a booking platform are shared with every other garage on it.
    id += random.int(1, 37);
  }
}

const PARKER_STATUSES = [
  ['Active', 80],
  ['Inactive', 12],
  ['Suspended', 8],
] as const;
const VEHICLE_STATUSES = [
  ['Active', 88],
  ['Removed', 12],
] as const;

function* monthlyParkers(generation: Generation, count: number, firstParkerId: number): Generator<MonthlyParkerRecord> {
  const random = generation.random('monthly_parkers');
  const { now } = generation;
  const stamp = tieGrid(random, 180 * DAY, count, generation.tieSize, now);
  let parkerid = firstParkerId;
  let emitted = 0;
  while (emitted < count) {
    const home = generation.pickLocation(random);
    const fname = random.pick(FIRST_NAMES);
    const lname = random.pick(LAST_NAMES);
    const homephone = random.chance(0.35) ? randomPhone(random, home.state) : null;
    const mobilephone = random.chance(0.9) ? randomPhone(random, home.state) : null;
    const workphone = random.chance(0.25) ? randomPhone(random, home.state) : null;
    const parkerStatus = random.weighted(PARKER_STATUSES);
    const vehicleCount = random.weighted([
      [1, 70],
      [2, 22],
      [3, 8],
    ] as const);
    const plates = new Set<string>();
    for (let attempt = 0; plates.size < vehicleCount && attempt < 10; attempt++) {
      plates.add(generation.vehicle(random, home, 0.5).plate);
    }
    const locations = [home];
    if (generation.locations.length > 1 && random.chance(0.08)) {
      const second = generation.pickLocation(random);
      if (second !== home) locations.push(second);
    }
    // Some signed up or changed today: the console skips its monthly sync when the newest update is today.
    const touched = random.chance(0.15) ? random.int(now - 6 * HOUR, now) : random.int(now - 180 * DAY, now - DAY);
    for (const location of locations) {
      for (const plate of plates) {
        if (emitted === count) return;
        const vehicleTouched = random.chance(0.1) ? random.int(touched, now) : touched;
        yield {
          license_plate: plate,
          location_id: location.location_id,
          vehicleStatus: random.weighted(VEHICLE_STATUSES),
          parkerid,
          fname,
          lname,
          homephone,
          mobilephone,
          workphone,
          parkerStatus,
          updated_at: stamp(vehicleTouched),
        };
        emitted++;
      }
    }
    parkerid += random.int(1, 3);
  }
}

/**
 * Every record, type by type in SYNC_TYPES order, in the shapes of the contract. Deterministic: the same options
 * (seed, counts, locations, tie size, now, first ids) give the same records. Memory stays flat: records are made as
 * they are consumed.
 */
export function* generateEnforcementRecords(options: EnforcementRecordOptions): Generator<GeneratedRecord> {
  const generation = new Generation(options, options.seed ?? DEFAULT_SEED);
  const firstIds = { ...DEFAULT_FIRST_IDS, ...options.firstIds };
  const { counts } = options;
  for (const record of transactions(generation, 'valid', counts.valid, firstIds.transaction)) {
    yield { type: 'valid', record };
  }
  for (const record of transactions(generation, 'expired', counts.expired, firstIds.transaction + counts.valid)) {
    yield { type: 'expired', record };
  }
  for (const record of bookings(generation, 'spothero', counts.spothero, firstIds.spothero)) {
    yield { type: 'spothero', record };
  }
  for (const record of bookings(generation, 'parkwhiz', counts.parkwhiz, firstIds.parkwhiz)) {
    yield { type: 'parkwhiz', record };
  }
  for (const record of monthlyParkers(generation, counts.monthly_parkers, firstIds.parker)) {
    yield { type: 'monthly_parkers', record };
  }
}

/** The same records, collected per type (tests and benchmarks that want them in memory). */
export function generateEnforcementDataset(options: EnforcementRecordOptions): EnforcementDataset {
  const dataset = Object.fromEntries(SYNC_TYPES.map((type) => [type, []])) as unknown as EnforcementDataset;
  for (const { type, record } of generateEnforcementRecords(options)) {
    (dataset[type] as GeneratedRecord['record'][]).push(record);
  }
  return dataset;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading into the database

export interface EnforcementSeedOptions {
  counts: TypeCounts;
  seed?: string | number;
  tieSize?: number;
  now?: number | Date;
  /** Default: every location in the database. */
  locationIds?: readonly number[];
  /** Delete all existing enforcement data first (otherwise the new records are added, with fresh ids). */
  reset?: boolean;
  /**
   * Drop secondary indexes and foreign keys during the load and restore them at the end (same transaction).
   * Default: when writing at least 20,000 records, and no fewer than the tables already hold.
   */
  bulk?: boolean;
  /** Rows per INSERT statement. */
  batchSize?: number;
  onProgress?: (written: number, total: number) => void;
}

export interface EnforcementSeedResult {
  counts: TypeCounts;
  total: number;
  locationIds: number[];
  firstIds: FirstIds;
  seconds: number;
}

export class EnforcementSeedError extends Error {
  override name = 'EnforcementSeedError';
}

/**
 * One statement per batch: the rows travel as one JSON parameter and json_to_recordset spreads them, which is far
 * quicker than thousands of bind parameters and works the same on PGlite and node-postgres.
 */
const INSERTS: Record<SyncType, string> = {
  valid: `INSERT INTO transactions (transaction_id, location_id, license_plate, expiry_date_time, payment_time,
            payment_amount, phone_number, updated_at)
          SELECT transaction_id, location_id, license_plate, expiry_date_time, payment_time, payment_amount,
                 phone_number, updated_at
            FROM json_to_recordset($1::json) AS r(transaction_id bigint, location_id integer, license_plate text,
                 expiry_date_time timestamptz, payment_time timestamptz, payment_amount numeric, phone_number text,
                 updated_at bigint)`,
  expired: '',
  spothero: `INSERT INTO bookings (source, id, location_id, license_plate, created_at, expiry_date_time, payment_time,
               payment_amount, updated_at)
             SELECT $2, id, location_id, license_plate, created_at, expiry_date_time, payment_time, payment_amount,
                    updated_at
               FROM json_to_recordset($1::json) AS r(id bigint, location_id integer, license_plate text,
                    created_at timestamptz, expiry_date_time timestamptz, payment_time timestamptz,
                    payment_amount numeric, updated_at bigint)`,
  parkwhiz: '',
  // In record order, so the surrogate keys (which order ties) follow the order the generator made them in.
  monthly_parkers: `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, homephone,
                      mobilephone, workphone, parker_status, vehicle_status, updated_at)
                    SELECT parkerid, location_id, license_plate, fname, lname, homephone, mobilephone, workphone,
                           "parkerStatus", "vehicleStatus", updated_at
                      FROM ROWS FROM (json_to_recordset($1::json) AS (parkerid bigint, location_id integer,
                           license_plate text, fname text, lname text, homephone text, mobilephone text,
                           workphone text, "parkerStatus" text, "vehicleStatus" text, updated_at bigint))
                           WITH ORDINALITY AS r(parkerid, location_id, license_plate, fname, lname, homephone,
                           mobilephone, workphone, "parkerStatus", "vehicleStatus", updated_at, position)
                     ORDER BY position`,
};
INSERTS.expired = INSERTS.valid;
INSERTS.parkwhiz = INSERTS.spothero;

async function insertBatch(tx: Queryable, type: SyncType, records: readonly unknown[]): Promise<void> {
  const params: unknown[] = [JSON.stringify(records)];
  if (type === 'spothero' || type === 'parkwhiz') params.push(type);
  await tx.query(INSERTS[type], params);
}

async function nextIds(tx: Queryable): Promise<FirstIds> {
  const { rows } = await tx.query<{ transaction: number | null; spothero: number | null; parkwhiz: number | null; parker: number | null }>(
    `SELECT (SELECT max(transaction_id) FROM transactions)::float8 AS transaction,
            (SELECT max(id) FROM bookings WHERE source = 'spothero')::float8 AS spothero,
            (SELECT max(id) FROM bookings WHERE source = 'parkwhiz')::float8 AS parkwhiz,
            (SELECT max(parkerid) FROM monthly_parkers)::float8 AS parker`,
  );
  const latest = rows[0]!;
  const after = (key: keyof FirstIds) => Math.max(DEFAULT_FIRST_IDS[key], (latest[key] ?? 0) + 1);
  return { transaction: after('transaction'), spothero: after('spothero'), parkwhiz: after('parkwhiz'), parker: after('parker') };
}

const ENFORCEMENT_TABLES = ['transactions', 'bookings', 'monthly_parkers'] as const;
/** From this many new rows on, a bulk load suspends indexes and foreign keys (see suspendIndexesAndForeignKeys). */
export const BULK_LOAD_ROWS = 20_000;

/**
 * For a bulk load: drops the secondary indexes (not keys or unique constraints) and the foreign keys of the
 * enforcement tables, and returns the statements that restore them, as the database itself prints them, to run after
 * the load in the same transaction. Building an index once and checking a foreign key with one join is 2–3× quicker
 * than doing both row by row; a failed check still rolls everything back.
 */
export async function suspendIndexesAndForeignKeys(
  tx: Queryable,
  tableNames: readonly string[] = ENFORCEMENT_TABLES,
): Promise<string[]> {
  const tables = `ARRAY[${tableNames.map((table) => `'${table}'::regclass`).join(', ')}]`;
  const indexes = await tx.query<{ name: string; definition: string }>(
    `SELECT ix.relname AS name, pg_get_indexdef(ix.oid) AS definition
       FROM pg_index x JOIN pg_class ix ON ix.oid = x.indexrelid
      WHERE x.indrelid = ANY (${tables}) AND NOT x.indisunique AND NOT x.indisprimary`,
  );
  const foreignKeys = await tx.query<{ table_name: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS table_name, conname AS name, pg_get_constraintdef(oid) AS definition
       FROM pg_constraint WHERE conrelid = ANY (${tables}) AND contype = 'f'`,
  );
  for (const { name } of indexes.rows) await tx.exec(`DROP INDEX "${name}"`);
  for (const { table_name, name } of foreignKeys.rows) await tx.exec(`ALTER TABLE ${table_name} DROP CONSTRAINT "${name}"`);
  return [
    ...indexes.rows.map((index) => index.definition),
    ...foreignKeys.rows.map((key) => `ALTER TABLE ${key.table_name} ADD CONSTRAINT "${key.name}" ${key.definition}`),
  ];
}

async function countRows(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ total: number }>(
    `SELECT (${ENFORCEMENT_TABLES.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')})::float8 AS total`,
  );
  return rows[0]?.total ?? 0;
}

/** The locations to generate data for, as the database has them (every one when `requested` is undefined). */
export async function seedLocations(db: Queryable, requested: readonly number[] | undefined): Promise<SeedLocation[]> {
  const { rows } = await db.query<Required<SeedLocation>>(
    'SELECT location_id, address, time_zone, capacity FROM locations ORDER BY location_id',
  );
  if (!requested) {
    if (rows.length === 0) throw new EnforcementSeedError('There are no locations in the database to generate data for.');
    return rows;
  }
  const missing = requested.filter((id) => !rows.some((row) => row.location_id === id));
  if (missing.length > 0) throw new EnforcementSeedError(`No location with id ${missing.join(', ')}.`);
  return [...new Set(requested)].map((id) => rows.find((row) => row.location_id === id)!);
}

/**
 * Generates records and writes them in one transaction: either all of them are there afterwards or none. Appends to
 * existing data unless `reset`; ids continue after the highest present. Returns what was written.
 */
export async function generateEnforcementData(db: Db, options: EnforcementSeedOptions): Promise<EnforcementSeedResult> {
  const started = performance.now();
  const locations = await seedLocations(db, options.locationIds);
  const total = SYNC_TYPES.reduce((sum, type) => sum + options.counts[type], 0);
  const batchSize = options.batchSize ?? 5000;
  const firstIds = await db.transaction(async (tx) => {
    // Refunds, refund tickets and their keys and notes belong to transactions (003, 008): they go with them.
    if (options.reset) {
      await tx.exec(
        `TRUNCATE ${ENFORCEMENT_TABLES.join(', ')}, refunds, refund_idempotency_keys, refund_tickets, refund_ticket_notes RESTART IDENTITY`,
      );
    }
    const ids = await nextIds(tx);
    // Worth it only when the new rows outnumber the ones already there (their index entries are rebuilt too).
    const bulk = options.bulk ?? (total >= BULK_LOAD_ROWS && total >= (await countRows(tx)));
    const restore = bulk ? await suspendIndexesAndForeignKeys(tx) : [];
    let batch: GeneratedRecord['record'][] = [];
    let batchType: SyncType = 'valid';
    let written = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await insertBatch(tx, batchType, batch);
      written += batch.length;
      batch = [];
      options.onProgress?.(written, total);
    };
    const records = generateEnforcementRecords({
      counts: options.counts,
      locations,
      seed: options.seed,
      tieSize: options.tieSize,
      now: options.now,
      firstIds: ids,
    });
    for (const { type, record } of records) {
      if (type !== batchType) await flush();
      batchType = type;
      batch.push(record);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
    // The trigram index of plates (003_admin_sections.sql) is most of the rebuild; GIN builds quicker with more room.
    if (restore.length > 0) await tx.exec("SET LOCAL maintenance_work_mem = '256MB'");
    for (const statement of restore) await tx.exec(statement);
    // Explicit ids bypass the identity sequence; move it past them so rows added later get fresh ids.
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('transactions', 'transaction_id'),
                     GREATEST((SELECT max(transaction_id) FROM transactions), 1))`,
    );
    return ids;
  });
  // Fresh statistics, so the planner knows which index bounds a page best (see 002_enforcement.sql).
  await db.exec('ANALYZE transactions; ANALYZE bookings; ANALYZE monthly_parkers;');
  return {
    counts: { ...options.counts },
    total,
    locationIds: locations.map((location) => location.location_id),
    firstIds,
    seconds: (performance.now() - started) / 1000,
  };
}
