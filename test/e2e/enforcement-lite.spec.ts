import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { apiGet, apiHeaders, apiPost } from './api-session';
import { expectHeading, signIn } from './sign-in';
import { E2E_API_URL } from './stack';

// Issue 14, Enforcement Lite (docs/enforcement-lite.md). Everything this spec needs it creates itself, named per run.
const superuser = demoAccount('superuser');
const admin = demoAccount('admin');
const run = Date.now().toString(36);
const PASSWORD = 'e2e-lite-officer-1';
const ROUTES = [
  '/enforcement-lite',
  '/enforcement-lite/add-location',
  '/enforcement-lite/edit-location/1',
  '/enforcement-lite/add-user',
  '/enforcement-lite/edit-user/1',
];

async function signedIn(page: Page, account: { email: string; password: string }, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url.split('?')[0]);
}

async function expectNoAxeViolations(page: Page, what: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, `${what} at ${width}px`).toEqual([]);
  }
}

test('a lite location and officer added in the console: the officer signs in and finds a plate of it on /list', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const locationName = `E2E Lite Lot ${run}`;
  const email = `lite-officer-${run}@example.com`;
  // Plates are 2–8 capitals and digits.
  const plate = `LT${run.slice(-6).toUpperCase()}`.replace(/[^A-Z0-9]/g, '').slice(0, 8);

  await signedIn(page, superuser, '/enforcement-lite/add-location');
  await expectHeading(page, 'Enforcement Lite: Add Location');
  // Typed and sent as one step, again if the screen was reloaded under the typing (the session's permissions are
  // confirmed in the background after a page load, which loads the route again).
  await expect(async () => {
    await page.getByLabel('Name', { exact: true }).fill(locationName);
    await page.getByLabel('Operator', { exact: true }).fill(`Operator ${run}`);
    await page.getByLabel('Address', { exact: true }).fill('5 Corner St, Austin, TX 78701');
    await page.getByLabel('Time zone', { exact: true }).selectOption('America/Chicago');
    await page.getByLabel('Spaces', { exact: true }).fill('40');
    await page.getByRole('button', { name: 'Add lite location' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Enforcement Lite: Edit Location' })).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  const locationId = Number(new URL(page.url()).pathname.split('/').at(-1));
  expect(locationId).toBeGreaterThan(0);

  await page.goto('/enforcement-lite/add-user');
  await expectHeading(page, 'Enforcement Lite: Add User');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Name', { exact: true }).fill(`Lite Officer ${run}`);
  await page.getByLabel(locationName, { exact: true }).check();
  // Issue 33: one click adds the officer. It used to be ignored: a message from an earlier blur outlived the ticked
  // box, went at the button's mousedown, and the button moved up from under the pointer.
  await expect(page.getByText('Choose at least one location.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add officer' }).click();
  await expect(page.getByLabel('Set-password link')).toBeVisible();
  const link = await page.getByLabel('Set-password link').inputValue();
  expect(link).toContain('mode=resetPassword');

  // The lists (locations found by operator, officers) and the forms, at 360 px and on a desktop.
  await page.goto(`/enforcement-lite?q=${encodeURIComponent(`Operator ${run}`)}`);
  await expect(page.getByRole('table', { name: 'Lite locations' }).getByRole('row', { name: new RegExp(locationName) })).toBeVisible();
  await expectNoAxeViolations(page, 'lite locations list');
  await page.getByRole('link', { name: 'Officers' }).click();
  await expect(page.getByRole('table', { name: 'Lite officers' }).getByRole('row', { name: new RegExp(email) })).toBeVisible();
  await expectNoAxeViolations(page, 'lite officers list');
  for (const [url, heading] of [
    [`/enforcement-lite/edit-location/${locationId}`, 'Enforcement Lite: Edit Location'],
    ['/enforcement-lite/add-location', 'Enforcement Lite: Add Location'],
    ['/enforcement-lite/add-user', 'Enforcement Lite: Add User'],
  ] as const) {
    await page.goto(url);
    await expectHeading(page, heading);
    await expectNoAxeViolations(page, heading);
  }

  // A payment at the lite location, as a pay station would record it (the dev stack's POST /dev/payments).
  const paid = await request.post(`${E2E_API_URL}/dev/payments`, { data: { locationId, amountCents: 500, plate } });
  expect(paid.status()).toBe(201);

  // The officer sets a password through the link, signs in, and finds the plate on /list.
  const officerContext = await browser.newContext();
  const officerPage = await officerContext.newPage();
  await officerPage.goto(`${link}&newPassword=${PASSWORD}`);
  await expect(officerPage.locator('body')).toContainText(/password/i);
  await signedIn(officerPage, { email, password: PASSWORD }, '/list');
  await officerPage.getByLabel('License plate').fill(plate);
  await expect(officerPage.getByText(plate, { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  // Exactly enforcement view at that location: nothing else opens.
  const headers = await apiHeaders(request, { email, password: PASSWORD });
  const loaded = await apiGet<{ userData: { permissions: unknown } }>(request, headers, '/load-permissions/');
  expect(loaded.data.userData.permissions).toEqual({ su: false, e: { v: [locationId], a: [], e: [], d: [] } });
  await officerPage.goto('/locations');
  await expectHeading(officerPage, 'Access denied');
  await officerContext.close();
});

test('a non-superuser gets Access denied on every Enforcement Lite route, and the API refuses them', async ({ page, request }) => {
  await signedIn(page, admin, '/locations');
  for (const url of ROUTES) {
    await page.goto(url);
    await expectHeading(page, 'Access denied');
  }
  const headers = await apiHeaders(request, admin);
  expect((await apiGet(request, headers, '/enforcement-lite/locations')).status).toBe(403);
  expect((await apiGet(request, headers, '/enforcement-lite/officers')).status).toBe(403);
  const forgedLocation = await apiPost(request, headers, '/enforcement-lite/locations', {
    name: `E2E forged ${run}`,
    address: 'Nowhere',
    time_zone: 'America/Chicago',
    capacity: 1,
    grace_period_minutes: 0,
    operator_name: 'Forger',
    status: 'active',
  });
  expect(forgedLocation.status).toBe(403);
  const forgedOfficer = await apiPost(request, headers, '/enforcement-lite/officers', {
    email: `forged-${run}@example.com`,
    display_name: 'Forged',
    location_ids: [1],
  });
  expect(forgedOfficer.status).toBe(403);
  const asSuperuser = await apiGet<{ rows: { name: string }[] }>(request, await apiHeaders(request, superuser), `/enforcement-lite/locations?q=${encodeURIComponent(`forged ${run}`)}`);
  expect(asSuperuser.data.rows).toEqual([]);
});
