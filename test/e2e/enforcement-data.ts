import type { APIRequestContext } from '@playwright/test';
import { SYNC_TYPES, type SyncType } from '../../src/contract/enforcement';
import { E2E, E2E_API_URL, E2E_EMULATOR_URL } from './stack';

/** One record as the e2e tests need it: where it is, its plate, and its category now. */
export interface KnownRecord {
  type: SyncType;
  plate: string;
  locationId: number;
  /** Transactions' expiry_date_time_unix; bookings' expiry_date_time in unix seconds; null for monthly parkers. */
  expiryUnix: number | null;
  /** Monthly parkers only. */
  parkerStatus: string | null;
  /** Transactions only: its id, and the dollars paid and refunded (all of it refunded: not paid, issue 34). */
  transactionId: number | null;
  paid: number;
  refunded: number;
}

/** Signs in to the emulator and the API as a demo account and returns the headers the console would send. */
export async function apiHeaders(request: APIRequestContext, email: string, password: string) {
  const signIn = await request.post(
    `${E2E_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    { data: { email, password, returnSecureToken: true } },
  );
  const { idToken } = (await signIn.json()) as { idToken: string };
  const lookup = await request.post(`${E2E_API_URL}/auth/permissions`, {
    headers: { Authorization: `Bearer ${idToken}` },
    data: { email },
  });
  const { data } = (await lookup.json()) as { data: { userData: { token: string } } };
  return { Authorization: `Bearer ${idToken}`, JwtToken: data.userData.token };
}

/** Every enforcement record of the given locations, read from the reference API page by page. */
export async function fetchRecords(
  request: APIRequestContext,
  account: { email: string; password: string },
  locationIds: number[],
): Promise<KnownRecord[]> {
  const headers = await apiHeaders(request, account.email, account.password);
  const records: KnownRecord[] = [];
  for (const type of SYNC_TYPES) {
    for (let offset = 0; ; offset += 2000) {
      const response = await request.post(`${E2E_API_URL}/enforcement/transactions?type=${type}`, {
        headers,
        data: { type, locationId: locationIds, limit: 2000, offset },
      });
      const { data } = (await response.json()) as { data: Record<string, unknown>[] };
      for (const record of data) {
        records.push({
          type,
          plate: String(record.license_plate),
          locationId: Number(record.location_id),
          expiryUnix:
            typeof record.expiry_date_time_unix === 'number'
              ? record.expiry_date_time_unix
              : typeof record.expiry_date_time === 'string'
                ? Date.parse(record.expiry_date_time) / 1000
                : null,
          parkerStatus: typeof record.parkerStatus === 'string' ? record.parkerStatus : null,
          transactionId: typeof record.transaction_id === 'number' ? record.transaction_id : null,
          paid: Number(record.payment_amount ?? 0),
          refunded: Number(record.refunded_amount ?? 0),
        });
      }
      if (data.length < 2000) break;
    }
  }
  return records;
}

/** All of a payment refunded: the verdict reads REFUNDED, not PAID (verdict.ts). */
export const fullyRefunded = (record: KnownRecord): boolean => record.refunded > 0 && record.refunded >= record.paid;

/** The category a record falls in now (valid/expired decided at search time, spec §5). */
export function categoryOf(record: KnownRecord, nowSeconds: number): string {
  if (record.type === 'valid' || record.type === 'expired') {
    return (record.expiryUnix ?? 0) > nowSeconds ? 'valid' : 'expired';
  }
  return record.type;
}

export const E2E_PROJECT = E2E.projectId;

/** The verdict headline a plate should get now among `records`: the same priority as the screen's (verdict.ts). */
export function expectedHeadlineIn(records: readonly KnownRecord[], plate: string): string {
  const now = Date.now() / 1000;
  const mine = records.filter((r) => r.plate.toUpperCase() === plate.toUpperCase());
  const kinds = mine.map((r) => categoryOf(r, now));
  if (mine.some((r) => categoryOf(r, now) === 'valid' && !fullyRefunded(r))) return 'PAID';
  if (mine.some((r) => (r.type === 'spothero' || r.type === 'parkwhiz') && (r.expiryUnix ?? 0) > now)) return 'BOOKED';
  if (kinds.includes('monthly_parkers')) return 'MONTHLY PARKER';
  if (kinds.includes('valid')) return 'REFUNDED';
  if (kinds.includes('expired')) return 'EXPIRED';
  if (mine.length > 0) return 'BOOKING ENDED';
  return 'NO RECORD';
}
