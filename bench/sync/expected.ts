/**
 * What the reference API serves the bench's officer, computed from the same deterministic generator: the counts and
 * search totals the sync bench's checks compare with, and the served records as JSON in the API's order (the
 * per-row ceiling's rows, served from memory by replay-server.ts).
 */
import { PURGE_AFTER_SECONDS, SYNC_TYPES, type SyncType } from '../../src/contract/enforcement';
import { SEARCH_CATEGORIES, type SearchCategory } from '../../src/worker/enforcement-worker-api';
import { generateEnforcementRecords, type FirstIds, type GeneratedRecord, type TypeCounts } from '../../server/db/seed/enforcement-data';
import { expirySeconds, isServed } from '../lib/served-records';

type Category = SearchCategory;
const CATEGORY_INDEX = Object.fromEntries(SEARCH_CATEGORIES.map((category, i) => [category, i])) as Record<Category, number>;
const CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];

export interface ServedRecord {
  updatedAt: number;
  key: number;
  json: string;
}

export interface Expected {
  servedByType: TypeCounts;
  served: number;
  /** Totals per category for each verification text (known plates, then the 36 single characters). */
  knownPlates: number;
  texts: string[];
  totals: Record<Category, number>[];
  /** The same after the purge. */
  totalsAfterPurge: Record<Category, number>[];
  purgeCutoffSeconds: number;
  purged: number;
  purgedByType: Partial<TypeCounts>;
  /** Records held by type as status() counts them at now (valid/expired by expiry). */
  heldByType: TypeCounts;
  probeText: string;
  /** The served records as the API sends them, per type in its order (updated_at, key). */
  records: Record<SyncType, ServedRecord[]>;
}

export interface DataSpec {
  counts: TypeCounts;
  firstIds: FirstIds;
  locations: number[];
  seed: string;
  nowMs: number;
  /** The purge runs this much after `nowMs`. */
  purgeAdvanceMs: number;
}

const emptyTotals = (): Record<Category, number> => Object.fromEntries(SEARCH_CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;

/**
 * Every plate holds at least one of A–Z, 0–9, so the 36 one-character searches find every record exactly when their
 * totals per category equal these: a record missing from the index lowers the total of each of its characters.
 */
export function expectedFor(spec: DataSpec): Expected {
  const nowSeconds = spec.nowMs / 1000;
  // Search splits transactions by expiry at search time; the other types are their own category.
  const categoryOf = (item: GeneratedRecord): Category =>
    item.type === 'valid' || item.type === 'expired' ? (item.record.expiry_date_time_unix > nowSeconds ? 'valid' : 'expired') : item.type;
  const purgeCutoffSeconds = Math.floor((spec.nowMs + spec.purgeAdvanceMs) / 1000) - PURGE_AFTER_SECONDS;
  const plates: string[] = [];
  const categories: number[] = [];
  const purgedFlags: boolean[] = [];
  const servedByType = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
  const heldByType = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
  const purgedByType: Partial<TypeCounts> = {};
  const records = Object.fromEntries(SYNC_TYPES.map((type) => [type, []])) as unknown as Record<SyncType, ServedRecord[]>;
  let parkerRow = 0; // monthly_parker_id: the API's surrogate key, in the order the generator made the records
  for (const item of generateEnforcementRecords({ counts: spec.counts, locations: spec.locations, seed: spec.seed, now: spec.nowMs, firstIds: spec.firstIds })) {
    if (item.type === 'monthly_parkers') parkerRow++;
    if (!isServed(item, nowSeconds)) continue;
    const key = item.type === 'valid' || item.type === 'expired' ? item.record.transaction_id : item.type === 'monthly_parkers' ? parkerRow : item.record.id;
    records[item.type].push({ updatedAt: item.record.updated_at, key, json: JSON.stringify(item.record) });
    servedByType[item.type]++;
    const category = categoryOf(item);
    heldByType[category === 'valid' ? 'valid' : category === 'expired' ? 'expired' : item.type]++;
    plates.push(item.record.license_plate.toUpperCase());
    categories.push(CATEGORY_INDEX[category]);
    const purged = expirySeconds(item) < purgeCutoffSeconds;
    purgedFlags.push(purged);
    if (purged) purgedByType[item.type] = (purgedByType[item.type] ?? 0) + 1;
  }
  // Known plates: a few served records spread over the types, searched by their whole plate.
  const known = [0.1, 0.3, 0.5, 0.7, 0.9].map((share) => plates[Math.floor(share * (plates.length - 1))]!);
  const texts = [...new Set(known), ...CHARACTERS];
  const totals = texts.map(emptyTotals);
  const totalsAfterPurge = texts.map(emptyTotals);
  for (let i = 0; i < plates.length; i++) {
    const plate = plates[i]!;
    const category = SEARCH_CATEGORIES[categories[i]!]!;
    for (let t = 0; t < texts.length; t++) {
      if (!plate.includes(texts[t]!)) continue;
      totals[t]![category]++;
      if (!purgedFlags[i]) totalsAfterPurge[t]![category]++;
    }
  }
  for (const type of SYNC_TYPES) records[type].sort((x, y) => x.updatedAt - y.updatedAt || x.key - y.key);
  return {
    servedByType,
    served: plates.length,
    knownPlates: texts.length - CHARACTERS.length,
    texts,
    totals,
    totalsAfterPurge,
    purgeCutoffSeconds,
    purged: purgedFlags.filter(Boolean).length,
    purgedByType,
    heldByType,
    probeText: known[2]!.slice(0, 3),
    records,
  };
}

/** Where search totals differ from the expected ones, in words (empty: every record found). */
export function totalsMismatches(got: readonly Record<Category, number>[], want: readonly Record<Category, number>[], texts: readonly string[]): string[] {
  const problems: string[] = [];
  texts.forEach((text, i) => {
    for (const category of SEARCH_CATEGORIES) {
      const a = got[i]?.[category];
      const b = want[i]?.[category];
      if (a !== b) problems.push(`"${text}" ${category}: ${a} found, ${b} expected`);
    }
  });
  return problems;
}
