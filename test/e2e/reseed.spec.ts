import { expect, test, type APIRequestContext } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { E2E, E2E_API_URL, E2E_EMULATOR_URL } from './stack';

const IDENTITY = `${E2E_EMULATOR_URL}/identitytoolkit.googleapis.com/v1`;
const ADMIN = { headers: { Authorization: 'Bearer owner' } };

async function signInAtEmulator(request: APIRequestContext, email: string, password: string) {
  const response = await request.post(`${IDENTITY}/accounts:signInWithPassword?key=demo-api-key`, {
    data: { email, password, returnSecureToken: true },
  });
  return (await response.json()) as { idToken?: string; localId?: string; error?: { message: string } };
}

async function setDisabled(request: APIRequestContext, localId: string, disabled: boolean) {
  await request.post(`${IDENTITY}/projects/${E2E.projectId}/accounts:update`, {
    ...ADMIN,
    data: { localId, disableUser: disabled },
  });
}

/**
 * Against the real Auth emulator: the seed's password check (its REST sign-in) and its rule of never writing
 * `disabled`. POST /dev/reseed is what `npm run seed:users` calls; `npm start` applies the same seed.
 */
test('a re-seed signs nobody out and keeps a disabled account disabled', async ({ request }) => {
  const officer = demoAccount('officer');
  const promo = demoAccount('promo');
  const signedIn = await signInAtEmulator(request, officer.email, officer.password);
  const lookup = await request.post(`${E2E_API_URL}/auth/permissions`, {
    headers: { Authorization: `Bearer ${signedIn.idToken}` },
    data: { email: officer.email },
  });
  const { data } = (await lookup.json()) as { data: { userData: { token: string } } };
  const headers = { Authorization: `Bearer ${signedIn.idToken}`, JwtToken: data.userData.token };
  const promoId = (await signInAtEmulator(request, promo.email, promo.password)).localId!;
  await setDisabled(request, promoId, true);
  try {
    // Revocation compares whole seconds: a password set in the sign-in's own second would not revoke it anyway.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const reseed = await request.post(`${E2E_API_URL}/dev/reseed`);
    expect(reseed.status()).toBe(200);
    expect(((await reseed.json()) as { data: { identities: { status: string } } }).data.identities.status).toBe('done');

    expect((await request.get(`${E2E_API_URL}/load-permissions/`, { headers })).status()).toBe(200);
    expect((await signInAtEmulator(request, promo.email, promo.password)).error?.message).toMatch(/USER_DISABLED/);
  } finally {
    await setDisabled(request, promoId, false);
  }
});
