import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { SignJWT } from 'jose';
import { demoAccount, type DemoPersona } from '../../server/db/seed/demo-accounts';
import { WRONG_CREDENTIALS } from '../../src/app/sign-in-errors';
import { E2E } from './stack';
import { expectHeading, signIn, storedSession } from './sign-in';

/** Where each demo persona lands after signing in at `/`, and a page it may open and one it may not. */
const JOURNEYS: Record<DemoPersona, { home: string; opens: [string, string]; refused: string }> = {
  superuser: { home: 'Real Time Dashboard', opens: ['/mailing', 'Mailing'], refused: '' },
  admin: { home: 'Real Time Dashboard', opens: ['/role-Config', 'User Roles'], refused: '/mailing' },
  officer: { home: 'Enforcement', opens: ['/list', 'Enforcement'], refused: '/user-config' },
  finance: { home: 'Real Time Dashboard', opens: ['/refund-portal', 'Refund Tickets'], refused: '/promo-codes' },
  // One section: the promo codes themselves, not a home page with one link.
  promo: { home: 'Promo Codes', opens: ['/promo-codes/add', 'Add promo code'], refused: '/locations' },
  noaccess: { home: 'Home', opens: ['/', 'Home'], refused: '/settled-dashboard' },
};

/** Signs up at the emulator as a new user would; `verified` then confirms the e-mail as its link would. */
async function signUp(page: Page, email: string, password: string, { verified }: { verified: boolean }) {
  const emulator = `http://127.0.0.1:${E2E.emulatorPort}/identitytoolkit.googleapis.com/v1`;
  const created = await page.request.post(`${emulator}/accounts:signUp?key=demo-api-key`, {
    data: { email, password, returnSecureToken: true },
  });
  const { localId } = (await created.json()) as { localId: string };
  if (verified) {
    await page.request.post(`${emulator}/projects/${E2E.projectId}/accounts:update`, {
      headers: { Authorization: 'Bearer owner' },
      data: { localId, emailVerified: true },
    });
  }
}

test.describe('sign-in', () => {
  test('the login page has no accessibility violations', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });

  for (const persona of Object.keys(JOURNEYS) as DemoPersona[]) {
    test(`${persona} signs in and reaches what the permissions allow, and nothing else`, async ({ page }) => {
      const account = demoAccount(persona);
      const journey = JOURNEYS[persona];
      await page.goto('/');
      await expect(page).toHaveURL(/\/login\?redirect=/);
      await signIn(page, account.email, account.password);
      await expectHeading(page, journey.home);
      expect((await storedSession(page)).lpa).toContain('"token"');

      await page.goto(journey.opens[0]);
      await expectHeading(page, journey.opens[1]);
      if (journey.refused) {
        await page.goto(journey.refused);
        await expectHeading(page, 'Access denied');
      }
    });
  }

  test('returns to the page that was asked for', async ({ page }) => {
    await page.goto('/list');
    await expect(page).toHaveURL(/\/login\?redirect=%2Flist/);
    await signIn(page, demoAccount('officer').email, demoAccount('officer').password);
    await expect(page).toHaveURL(/\/list$/);
    await expectHeading(page, 'Enforcement');
  });

  // The emulator reports the two cases with different codes; the page must not tell who has an account.
  test('a wrong password gets the same answer as an unknown e-mail, and keeps the e-mail', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText(WRONG_CREDENTIALS);
    await expect(page.getByLabel('E-mail')).toHaveValue(demoAccount('admin').email);
  });

  test('an unknown e-mail gets the same answer as a wrong password', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'nobody-here@example.com', 'whatever-password');
    await expect(page.getByRole('alert')).toHaveText(WRONG_CREDENTIALS);
  });

  test('a disabled account says so', async ({ page }) => {
    const emulator = `http://127.0.0.1:${E2E.emulatorPort}/identitytoolkit.googleapis.com/v1`;
    const created = await page.request.post(`${emulator}/accounts:signUp?key=demo-api-key`, {
      data: { email: 'disabled-officer@example.com', password: 'disabled-pass', returnSecureToken: true },
    });
    const { localId } = (await created.json()) as { localId: string };
    await page.request.post(`${emulator}/projects/${E2E.projectId}/accounts:update`, {
      headers: { Authorization: 'Bearer owner' },
      data: { localId, disableUser: true },
    });
    await page.goto('/login');
    await signIn(page, 'disabled-officer@example.com', 'disabled-pass');
    await expect(page.getByRole('alert')).toHaveText('This account has been disabled. Contact your administrator.');
  });

  test('a network failure says so', async ({ page }) => {
    await page.goto('/login');
    await page.route(`**/identitytoolkit.googleapis.com/**`, (route) => route.abort('internetdisconnected'));
    await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
    await expect(page.getByRole('alert')).toHaveText('Network error: check your connection and try again.');
  });

  test('a too-short password is refused before it is sent', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, '12345');
    await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters.');
  });

  test('password reset confirms without saying whether the account exists', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(demoAccount('officer').email);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page.getByRole('status')).toHaveText(
      `If an account exists for ${demoAccount('officer').email}, a password reset link is on its way.`,
    );
  });
});

test.describe('Firebase off the critical path', () => {
  // The service worker would answer the page's script requests from its cache, out of reach of page.route.
  test.use({ serviceWorkers: 'block' });

  /** Holds every download of the Firebase chunk until `release()`; `requests` counts them. */
  async function holdFirebase(page: Page) {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const requests: string[] = [];
    await page.route(/\/assets\/firebase-auth-[^/]*\.js$/, async (route) => {
      requests.push(route.request().url());
      await held;
      await route.continue();
    });
    return { requests, release: () => release() };
  }

  test('the login form works before Firebase has loaded; submitting loads it and signs in', async ({ page }) => {
    const firebase = await holdFirebase(page);
    await page.goto('/list');
    await expect(page).toHaveURL(/\/login\?redirect=%2Flist/);
    await expect(page.getByLabel('E-mail')).toBeEditable();
    expect(firebase.requests).toEqual([]);
    await signIn(page, demoAccount('officer').email, demoAccount('officer').password);
    await expect(page.getByRole('button', { name: 'Signing in…' })).toBeDisabled();
    expect(firebase.requests).toHaveLength(1);
    firebase.release();
    await expect(page).toHaveURL(/\/list$/);
    await expectHeading(page, 'Enforcement');
  });

  test('a reload with a stored session shows the page at once; Firebase and the server confirm it later', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
    await expectHeading(page, 'Real Time Dashboard');
    const entries = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
    await expect(entries).toHaveCount(10);

    const firebase = await holdFirebase(page);
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/auth/permissions')) lookups.push(request.url());
    });
    await page.goto('/list');
    // Signed in from lpa, not yet confirmed: only what works without the server is offered.
    await expectHeading(page, 'Enforcement');
    await expect(entries).toHaveText(['Enforcement']);
    expect(lookups).toEqual([]);
    firebase.release();
    await expect(entries).toHaveCount(10);
    await expectHeading(page, 'Enforcement');
    expect(lookups).toHaveLength(1);
  });
});

test.describe('signed in', () => {
  test('a signed-in page has no accessibility violations', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
    await expectHeading(page, 'Real Time Dashboard');
    await page.goto('/locations');
    await expect(page.getByRole('link', { name: 'Edit Union Station Garage' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });

  test('logout leaves no token or lpa in storage and shows the login page', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demoAccount('finance').email, demoAccount('finance').password);
    await expectHeading(page, 'Real Time Dashboard');
    await page.getByRole('link', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    const stored = await storedSession(page);
    expect(stored).toEqual({ lpa: null, keys: 0 });
    await page.goto('/settled-dashboard');
    await expect(page).toHaveURL(/\/login\?redirect=/);
  });

  test('an expired server session token sends the user to /login', async ({ page }) => {
    // The admin's enforcement sync would meet the expired token too; keep it out so the page's own call does.
    await page.context().route('**/enforcement/transactions**', (route) => route.abort('internetdisconnected'));
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
    await expectHeading(page, 'Real Time Dashboard');
    // A token the server itself would have issued an hour ago with a one-minute lifetime.
    const issuedAt = Math.floor(Date.now() / 1000) - 3600;
    const expired = await new SignJWT({ email: demoAccount('admin').email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience('lightning-pay-admin')
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 60)
      .sign(new TextEncoder().encode(E2E.sessionSecret));
    await page.evaluate((token) => {
      const session = JSON.parse(localStorage.getItem('lpa') ?? '{}');
      localStorage.setItem('lpa', JSON.stringify({ ...session, token }));
    }, expired);
    await page.getByRole('link', { name: 'Locations' }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await storedSession(page)).toEqual({ lpa: null, keys: 0 });
  });

  test('a staff member unknown to the API is turned away with a message', async ({ page }) => {
    // Signed into the identity provider with a verified e-mail, but with no staff record: the lookup refuses and the
    // session is cleared.
    await signUp(page, 'stranger@example.com', 'stranger-pass', { verified: true });
    await page.goto('/login');
    await signIn(page, 'stranger@example.com', 'stranger-pass');
    await expect(page.getByRole('alert')).toContainText('No staff account');
    expect((await storedSession(page)).lpa).toBeNull();
  });

  test('an account whose e-mail is not verified gets nothing, and is told why', async ({ page }) => {
    await signUp(page, 'unverified@example.com', 'unverified-pass', { verified: false });
    await page.goto('/login');
    await signIn(page, 'unverified@example.com', 'unverified-pass');
    await expect(page.getByRole('alert')).toContainText('Verify your e-mail address first');
    expect((await storedSession(page)).lpa).toBeNull();
  });
});
