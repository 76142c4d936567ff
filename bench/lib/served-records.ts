import { PURGE_AFTER_SECONDS } from '../../src/contract/enforcement';
import type { GeneratedRecord } from '../../server/db/seed/enforcement-data';

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
