import { PURGE_AFTER_SECONDS, SYNC_TYPES } from '../../src/contract/enforcement';
import { generateEnforcementRecords, type GeneratedRecord, type TypeCounts } from '../../server/db/seed/enforcement-data';

/** A generated record's expiry in unix seconds; monthly parkers never expire (and are never purged). */
export function expirySeconds(item: GeneratedRecord): number {
  if (item.type === 'valid' || item.type === 'expired') return item.record.expiry_date_time_unix;
  if (item.type === 'spothero' || item.type === 'parkwhiz') return Math.floor(Date.parse(item.record.expiry_date_time) / 1000);
  return Number.POSITIVE_INFINITY;
}

/** The API's filter (server/db/enforcement.ts) at `nowSeconds`: valid after now, expired and bookings within 21 days. */
export function isServed(item: GeneratedRecord, nowSeconds: number): boolean {
  const expiry = expirySeconds(item);
  const cutoff = nowSeconds - PURGE_AFTER_SECONDS;
  switch (item.type) {
    case 'valid':
      return expiry > nowSeconds;
    case 'expired':
      return expiry <= nowSeconds && expiry > cutoff;
    case 'spothero':
    case 'parkwhiz':
      return expiry > cutoff;
    case 'monthly_parkers':
      return true;
  }
}

/**
 * How many records of each type to generate so that the API serves exactly `target` of each (it leaves out expired
 * transactions and bookings older than 21 days), and the plates of the served ones (upper case). The generator draws
 * each type from its own random stream, record by record, so a longer run keeps the same first records.
 */
export function calibrateServedCounts(
  target: TypeCounts,
  options: { locations: number[]; seed: string; nowMs: number },
): { counts: TypeCounts; plates: string[] } {
  const nowSeconds = options.nowMs / 1000;
  let factor = 1.6;
  for (let attempt = 0; attempt < 4; attempt++, factor *= 1.5) {
    const trial = Object.fromEntries(
      SYNC_TYPES.map((type) => [type, type === 'valid' || type === 'monthly_parkers' ? target[type] : Math.ceil(target[type] * factor) + 100]),
    ) as TypeCounts;
    const generated = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
    const served = Object.fromEntries(SYNC_TYPES.map((type) => [type, 0])) as TypeCounts;
    const needed: Partial<TypeCounts> = {};
    const plates: string[] = [];
    for (const item of generateEnforcementRecords({ counts: trial, locations: options.locations, seed: options.seed, now: options.nowMs })) {
      generated[item.type]++;
      if (needed[item.type] !== undefined || !isServed(item, nowSeconds)) continue;
      plates.push(item.record.license_plate.toUpperCase());
      if (++served[item.type] === target[item.type]) needed[item.type] = generated[item.type];
    }
    if (SYNC_TYPES.every((type) => needed[type] !== undefined)) return { counts: needed as TypeCounts, plates };
  }
  throw new Error('could not find record counts that serve the target per type');
}
