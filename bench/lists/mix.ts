/**
 * The list bench's mix of searches (bench/lists.bench.ts): a fixed, seeded set of searches as staff type them, cut
 * from stored payments, for each persona.
 */
import { LIST_ROW_LIMIT } from '../../src/contract/lists';
import type { Db } from '../../server/db/db';
import { createRandom, type Random } from '../../server/db/seed/prng';
import { HANDFUL_LOCATIONS, OPERATOR_LOCATION_COUNT, PERSONAS, type Persona } from '../lib/operator-data';

export interface MixOptions {
  rows: number;
  days: number;
  seed: string;
  variants: number;
  now: Date;
}

const DAY_MS = 24 * 3600 * 1000;

export const KINDS = [
  'newest',
  'plate 2',
  'plate 3',
  'plate 4-5',
  'plate 6-7',
  'phone last 4',
  'date range',
  'date range + plate',
  'location',
  'status',
  'amount',
  'sort',
  'deep page',
] as const;
export type Kind = (typeof KINDS)[number];

export interface ListQuery {
  kind: Kind;
  persona: Persona;
  path: string;
}

export interface SampleRow {
  transaction_id: number;
  location_id: number;
  license_plate: string;
  phone_last4: string | null;
  amount_cents: number;
}

/** Stored payments to search for: seeded ids across the whole table. */
export async function samplePayments(db: Db, firstId: number, options: MixOptions): Promise<SampleRow[]> {
  const random = createRandom(`${options.seed}:lists:sample`);
  const ids = Array.from({ length: 4000 }, () => firstId + Math.floor(random.next() * options.rows));
  const { rows } = await db.query<SampleRow>(
    `SELECT transaction_id::float8 AS transaction_id, location_id, license_plate, phone_last4,
            (payment_amount * 100)::integer AS amount_cents
       FROM transactions WHERE transaction_id = ANY($1::bigint[]) ORDER BY transaction_id`,
    [ids],
  );
  return rows;
}

const dollars = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A fragment of a stored plate as staff would type it: sometimes in lower case. */
function fragmentOf(random: Random, plate: string, length: number): string {
  const letters = plate.replace(/[\s-]/g, '');
  const size = Math.min(length, letters.length);
  const start = random.int(0, letters.length - size);
  const fragment = letters.slice(start, start + size);
  return random.chance(0.3) ? fragment.toLowerCase() : fragment;
}

export function buildMix(samples: readonly SampleRow[], options: MixOptions): ListQuery[] {
  const { days: DAYS, seed: SEED, variants: VARIANTS } = options;
  const dayText = (daysBeforeNow: number) => new Date(options.now.getTime() - daysBeforeNow * DAY_MS).toISOString().slice(0, 10);
  const queries: ListQuery[] = [];
  for (const persona of Object.keys(PERSONAS) as Persona[]) {
    const scope = persona === 'handful' ? HANDFUL_LOCATIONS : null;
    const inScope = samples.filter((row) => !scope || scope.includes(row.location_id));
    const withPhone = inScope.filter((row) => row.phone_last4);
    const locationIds = scope ?? Array.from({ length: OPERATOR_LOCATION_COUNT }, (_, index) => index + 1);
    for (const kind of KINDS) {
      for (let variant = 0; variant < VARIANTS; variant++) {
        const random = createRandom(`${SEED}:lists:${persona}:${kind}:${variant}`);
        const sample = random.pick(inScope);
        const params: Record<string, string | number> = {};
        const range = (spans: readonly number[]) => {
          const span = random.pick(spans);
          const end = random.int(0, DAYS - span);
          params.from = dayText(end + span - 1);
          params.to = dayText(end);
        };
        switch (kind) {
          case 'newest':
            params.pageSize = random.pick([25, 50, 100]);
            params.page = random.pick([1, 1, 1, 2, 3]);
            break;
          case 'plate 2':
            params.plate = fragmentOf(random, sample.license_plate, 2);
            break;
          case 'plate 3':
            params.plate = fragmentOf(random, sample.license_plate, 3);
            break;
          case 'plate 4-5':
            params.plate = fragmentOf(random, sample.license_plate, random.int(4, 5));
            break;
          case 'plate 6-7':
            params.plate = fragmentOf(random, sample.license_plate, random.int(6, 7));
            break;
          case 'phone last 4':
            params.phone = random.pick(withPhone).phone_last4!;
            break;
          case 'date range':
            range([1, 7, 31]);
            params.page = random.pick([1, 1, 2]);
            break;
          case 'date range + plate':
            range([31, 92]);
            params.plate = fragmentOf(random, sample.license_plate, 3);
            break;
          case 'location':
            params.locationId = random.pick(locationIds);
            params.page = random.pick([1, 2, 5]);
            break;
          case 'status':
            params.status = random.pick(['refunded', 'partially_refunded']);
            break;
          case 'amount':
            params.amount = dollars(sample.amount_cents);
            break;
          case 'sort':
            params.sort = random.pick(['amount', 'license_plate', 'transaction_id', 'payment_time']);
            params.dir = random.pick(['asc', 'desc']);
            break;
          case 'deep page': {
            // The last page the API serves: rows 9,901–10,000 (or 9,951–, 9,976–).
            const pageSize = random.pick([25, 50, 100]);
            params.pageSize = pageSize;
            params.page = LIST_ROW_LIMIT / pageSize;
            const sort = random.pick(['payment_time', 'amount', 'license_plate', 'transaction_id']);
            if (sort !== 'payment_time') params.sort = sort;
            params.dir = random.pick(['asc', 'desc']);
            break;
          }
        }
        const search = new URLSearchParams(Object.entries(params).map(([key, value]) => [key, String(value)]));
        queries.push({ kind, persona, path: `/transactions?${search}` });
      }
    }
  }
  return queries;
}

