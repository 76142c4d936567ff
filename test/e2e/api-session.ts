import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { E2E, E2E_API_URL, E2E_EMULATOR_URL } from './stack';

/** The headers the console sends for a user: the emulator's ID token and the API's session token. */
export async function apiHeaders(
  request: APIRequestContext,
  account: { email: string; password: string },
): Promise<Record<string, string>> {
  const signIn = await request.post(
    `${E2E_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    { data: { email: account.email, password: account.password, returnSecureToken: true } },
  );
  const { idToken } = (await signIn.json()) as { idToken: string };
  const lookup = await request.post(`${E2E_API_URL}/auth/permissions`, {
    headers: { Authorization: `Bearer ${idToken}` },
    data: { email: account.email },
  });
  const { data } = (await lookup.json()) as { data: { userData: { token: string } } };
  return { Authorization: `Bearer ${idToken}`, JwtToken: data.userData.token };
}

/** A call to the reference API as that user: the status and the envelope's data. */
export async function apiGet<T>(request: APIRequestContext, headers: Record<string, string>, pathAndQuery: string) {
  const response = await request.get(`${E2E_API_URL}${pathAndQuery}`, { headers });
  const body = (await response.json()) as { success: boolean; data: T; message?: string };
  return { status: response.status(), data: body.data, message: body.message };
}

export async function apiPost<T>(
  request: APIRequestContext,
  headers: Record<string, string>,
  pathAndQuery: string,
  payload: unknown,
) {
  const response = await request.post(`${E2E_API_URL}${pathAndQuery}`, { headers, data: payload });
  const body = (await response.json()) as { success: boolean; data: T; message?: string };
  return { status: response.status(), data: body.data, message: body.message };
}

/** Accounts the admin-section tests add to the demo ones (the seed-users format of docs/development.md "Seeding more users"). */
export const SECTION_USERS = {
  /** Locations: view at 1–3, edit at 1 only. Refund portal: Union Station Garage (1) only. */
  narrow: {
    email: 'narrow-staff@example.com',
    password: 'lightning-e2e',
    displayName: 'Narrow Staff',
    permissions: { su: false, lo: { v: [1, 2, 3], e: [1] }, rp: { v: [1] } },
  },
  /** Promo codes: view only, at Union Station Garage (1) (refunds.spec.ts). */
  promoViewer: {
    email: 'promo-viewer@example.com',
    password: 'lightning-e2e',
    displayName: 'Promo Viewer',
    permissions: { su: false, pc: { v: [1] } },
  },
  /** Rate settings: view only, at Union Station Garage (1) (rates.spec.ts). */
  rateViewer: {
    email: 'rate-viewer@example.com',
    password: 'lightning-e2e',
    displayName: 'Rate Viewer',
    permissions: { su: false, rs: { v: [1] } },
  },
} as const;

/** Whether the account signs in and the API knows its permissions (it was seeded before). */
async function isSeeded(request: APIRequestContext, account: { email: string; password: string }): Promise<boolean> {
  try {
    const headers = await apiHeaders(request, account);
    return (await request.get(`${E2E_API_URL}/load-permissions/`, { headers })).ok();
  } catch {
    return false;
  }
}

/**
 * Seeds accounts into this worker's e2e stack when any is missing: the file goes where the API keeps extra seed users
 * (LPA_DATA_DIR, the stack's dataDir: test/e2e/stack.ts), and POST /dev/reseed applies it at once. Only when
 * missing: a re-seed also resets the demo roles, taking back what they were granted since (the locations a test
 * added).
 */
export async function seedAccounts(
  request: APIRequestContext,
  file: string,
  accounts: readonly { email: string; password: string }[],
): Promise<void> {
  const seeded = await Promise.all(accounts.map((account) => isSeeded(request, account)));
  if (seeded.every(Boolean)) return;
  const directory = path.join(E2E.dataDir, 'seed-users');
  await mkdir(directory, { recursive: true });
  await writeFile(path.join(directory, file), JSON.stringify(accounts, null, 2));
  const response = await request.post(`${E2E_API_URL}/dev/reseed`, { timeout: 60_000 });
  if (!response.ok()) throw new Error(`reseed failed: ${response.status()} ${await response.text()}`);
}

/** SECTION_USERS, seeded when missing. */
export const seedSectionUsers = (request: APIRequestContext) =>
  seedAccounts(request, 'admin-sections-e2e.json', Object.values(SECTION_USERS));
