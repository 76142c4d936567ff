import { fetchRecords } from './enforcement-data';
import { expect, test, type BrowserContext, type Page } from './test';
import { demoAccount, type DemoPersona } from '../../server/db/seed/demo-accounts';
import { expectHeading, signIn, storedSession } from './sign-in';
import { E2E_API_URL } from './stack';

/**
 * Offline use (docs/decisions/0016-service-worker-precaches-the-app-shell.md,
 * docs/decisions/0017-offline-session-from-the-stored-session.md): after the first visit the service worker holds the
 * app shell and the enforcement worker holds the officer's data, so /list opens with no network; the session is
 * restored from the stored one (lpa), offering only what works offline, and confirmed again as soon as the network
 * returns. Signing out clears the runtime caches and the local store.
 */

/** The sidebar entries of an administrator whose session the server confirmed (every one but superusers'). */
const ADMIN_ENTRIES = [
  'Real Time Dashboard',
  'Settled Dashboard',
  'Enforcement',
  'Configure Rates',
  'Rate Changes',
  'Locations',
  'Promo Codes',
  'Transactions',
  'Users',
  'User Roles',
];

function sidebarEntries(page: Page) {
  return page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
}

/** Resolves once a sync request of `type` (made by the page's enforcement worker) has finished. */
function syncRequestFinished(page: Page, type: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('requestfinished', (request) => {
      if (request.method() === 'POST' && request.url().includes(`/enforcement/transactions?type=${type}`)) resolve();
    });
  });
}

/** The service worker is active and controls this page (it claims the page on the first visit). */
async function serviceWorkerInControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** Rows per table of the enforcement store ('lpa-enforcement'), or null while it does not exist. */
function storeCounts(page: Page): Promise<Record<string, number> | null> {
  return page.evaluate(async () => {
    const databases = await indexedDB.databases();
    if (!databases.some((database) => database.name === 'lpa-enforcement')) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('lpa-enforcement');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      const names = [...db.objectStoreNames];
      const tx = db.transaction(names, 'readonly');
      const counts = await Promise.all(
        names.map(
          (name) =>
            new Promise<[string, number]>((resolve, reject) => {
              const request = tx.objectStore(name).count();
              request.onsuccess = () => resolve([name, request.result]);
              request.onerror = () => reject(request.error);
            }),
        ),
      );
      return Object.fromEntries(counts);
    } finally {
      db.close();
    }
  });
}

function cacheNames(page: Page): Promise<string[]> {
  return page.evaluate(() => caches.keys());
}

/** Signs `persona` in online, waits for the service worker and, when `synced`, for the first sync to end. */
async function firstVisit(page: Page, persona: DemoPersona, home: string, options: { synced: boolean }) {
  const monthlyParkersSynced = syncRequestFinished(page, 'monthly_parkers');
  const account = demoAccount(persona);
  await page.goto('/login');
  await signIn(page, account.email, account.password);
  await expectHeading(page, home);
  await serviceWorkerInControl(page);
  if (options.synced) {
    // The last type of the first sync has been fetched, and every type's sync is recorded in the store.
    await monthlyParkersSynced;
    await expect.poll(async () => (await storeCounts(page))?.sync_info, { timeout: 30_000 }).toBe(5);
    expect((await storeCounts(page))?.transactions).toBeGreaterThan(0);
  }
}

/** The permissions lookup (POST /auth/permissions) of the reference API. */
const isLookup = (url: string) => url.startsWith(`${E2E_API_URL}/auth/permissions`);

/** Opens /list online: signed in from lpa at once, the session then confirmed (and lpa renewed) in the background. */
async function openList(page: Page) {
  const confirmed = page.waitForResponse((response) => isLookup(response.url()) && response.request().method() === 'POST');
  await page.goto('/list');
  await expectHeading(page, 'Enforcement');
  expect((await confirmed).ok()).toBe(true);
}

/**
 * What a phone's browser reports offline, from a document's start. Chromium 150 (Debian's package in 2026-11) cuts
 * an offline context's network but leaves `navigator.onLine` true in a document loaded while offline (Chromium 156
 * did not), so the app would not know it is offline. While sessionStorage holds the mark (it survives a reload), a
 * getter installed before the app's scripts run says offline.
 */
const OFFLINE_MARK = 'e2e-offline';
async function reportOfflineFromDocumentStart(page: Page) {
  await page.addInitScript((mark) => {
    const native = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!.get!;
    Object.defineProperty(Navigator.prototype, 'onLine', {
      configurable: true,
      get(this: Navigator) {
        return sessionStorage.getItem(mark) === null && (native.call(this) as boolean);
      },
    });
  }, OFFLINE_MARK);
}

/**
 * Brings the browser back online after reloadOffline: the mark goes, and the `online` event that a phone's browser
 * fires comes too (Chromium 150 fires none in a document that it took to be online all along).
 */
async function backOnline(page: Page, context: BrowserContext) {
  await page.evaluate((mark) => sessionStorage.removeItem(mark), OFFLINE_MARK);
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

/** Takes the browser offline and reloads the page (/list) from the service worker's cache. */
async function reloadOffline(page: Page, context: BrowserContext) {
  await reportOfflineFromDocumentStart(page);
  await context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await page.evaluate((mark) => sessionStorage.setItem(mark, '1'), OFFLINE_MARK);
  await page.reload();
  await expectHeading(page, 'Enforcement');
}

test.describe('offline', () => {
  test('officer: /list opens and searches with no network after the first visit', async ({ page, context, request }) => {
    const lookupsWhileOffline: string[] = [];
    const known = (await fetchRecords(request, demoAccount('officer'), [1, 2])).find((r) => r.type === 'spothero');
    expect(known).toBeDefined();
    await firstVisit(page, 'officer', 'Enforcement', { synced: true });
    await openList(page);
    const storedBefore = await storedSession(page);

    page.on('request', (request) => {
      if (isLookup(request.url())) lookupsWhileOffline.push(request.url());
    });
    await reloadOffline(page, context);
    await expect(sidebarEntries(page)).toHaveText(['Enforcement']);
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toContainText(demoAccount('officer').email);
    // The session was restored from lpa, which was not touched; the store still holds the first sync's data.
    expect(await storedSession(page)).toEqual(storedBefore);
    expect((await storeCounts(page))?.transactions).toBeGreaterThan(0);
    // Offline, the permissions lookup is not even attempted.
    expect(lookupsWhileOffline).toEqual([]);

    // Plate searches run against the local store, with no network.
    await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
    await page.getByLabel('License plate').fill(known!.plate);
    const spothero = page.getByRole('region', { name: /^SpotHero \(/ });
    await expect(spothero.getByText(known!.plate, { exact: true }).first()).toBeVisible();

    // Back online: the session is confirmed again without a reload.
    const confirmed = page.waitForResponse(
      (response) => isLookup(response.url()) && response.request().method() === 'POST',
    );
    await backOnline(page, context);
    expect((await confirmed).ok()).toBe(true);
    await expectHeading(page, 'Enforcement');
    await expect(sidebarEntries(page)).toHaveText(['Enforcement']);
  });

  test('admin: offline only Enforcement is offered; back online the full sidebar returns without a reload', async ({
    page,
    context,
  }) => {
    await firstVisit(page, 'admin', 'Real Time Dashboard', { synced: false });
    await expect(sidebarEntries(page)).toHaveText(ADMIN_ENTRIES);

    await openList(page);
    await reloadOffline(page, context);
    await expect(sidebarEntries(page)).toHaveText(['Enforcement']);

    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    await backOnline(page, context);
    await expect(sidebarEntries(page)).toHaveText(ADMIN_ENTRIES);
    await expectHeading(page, 'Enforcement');
    expect(reloaded).toBe(false);
  });

  test('offline, a session stored for another user is not restored', async ({ page, context }) => {
    await firstVisit(page, 'officer', 'Enforcement', { synced: false });
    // lpa now holds someone else's session (its token names another e-mail).
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('lpa') ?? '{}') as { token: string };
      const [header, payload, signature] = session.token.split('.');
      const claims = JSON.parse(atob((payload ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as object;
      const forged = btoa(JSON.stringify({ ...claims, email: 'admin@example.com' })).replace(/=+$/, '');
      localStorage.setItem('lpa', JSON.stringify({ ...session, token: `${header}.${forged}.${signature}` }));
    });
    await context.setOffline(true);
    await page.goto('/list');
    await expect(page).toHaveURL(/\/login\?redirect=%2Flist/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    expect(await storedSession(page)).toEqual({ lpa: null, keys: 0 });
  });

  test('signing out clears the runtime caches and the local store; the login page still opens offline', async ({
    page,
    context,
  }) => {
    await firstVisit(page, 'officer', 'Enforcement', { synced: true });
    // A runtime cache, as a later feature might keep (e.g. API answers); only the app-shell precache may survive.
    await page.evaluate(async () => {
      const cache = await caches.open('lpa-runtime-e2e');
      await cache.put('/e2e-probe', new Response('user data'));
    });
    expect(await cacheNames(page)).toContain('lpa-runtime-e2e');
    expect((await cacheNames(page)).some((name) => name.startsWith('lpa-precache-'))).toBe(true);

    await page.getByRole('link', { name: 'Logout' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

    await expect.poll(() => cacheNames(page)).not.toContain('lpa-runtime-e2e');
    const remaining = await cacheNames(page);
    expect(remaining.filter((name) => !name.startsWith('lpa-precache-'))).toEqual([]);
    expect(remaining.length).toBeGreaterThan(0);

    // Every table of the store is empty (meta keeps only the store's change counter).
    await expect
      .poll(async () => {
        const counts = (await storeCounts(page)) ?? {};
        return Object.entries(counts).filter(([table, rows]) => table !== 'meta' && rows > 0);
      })
      .toEqual([]);
    expect(await storedSession(page)).toEqual({ lpa: null, keys: 0 });

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });
});
