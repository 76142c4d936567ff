import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { RateLocation } from '../../src/contract/rates';
import { apiGet, apiHeaders, apiPost, SECTION_USERS, seedSectionUsers } from './api-session';
import { E2E_API_URL } from './stack';
import { expectHeading, signIn } from './sign-in';

// Issue 11's screens: Configure Rates with its calculator over the seeded rates, Rate Configuration, the editor's
// flow from a gap to a scheduled change that the calculator quotes once the rates' clock has passed it
// (POST /dev/rates-clock, e2e stack only), Rate Changes, and the permission edges of the editor.
const admin = demoAccount('admin');
const viewer = SECTION_USERS.rateViewer;

async function signedIn(page: Page, account: { email: string; password: string }, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url.split('?')[0]);
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  await seedSectionUsers(request);
  await request.dispose();
});

test('the calculator quotes the rates in force at the chosen location', async ({ page }) => {
  await signedIn(page, admin, '/rate-selection?locationId=1');
  await expectHeading(page, 'Configure Rates');
  await expect(page.getByLabel('Location')).toHaveValue('1');
  await expect(page.getByRole('table', { name: 'Bands by day' })).toContainText('Monday');
  await page.getByLabel('Arrival', { exact: true }).fill('2026-03-02T09:00');
  await page.getByLabel('Departure', { exact: true }).fill('2026-03-02T10:10');
  // The seeded Union Station rates: $2.00 a quarter hour on weekdays, 22.5 % tax: 5 × $2.00 + $2.25.
  await expect(page.getByText(/^Amount:/)).toContainText('$12.25');
  await page.getByLabel('Location').selectOption('3');
  await expect.poll(() => new URL(page.url()).searchParams.get('locationId')).toBe('3');
  // The calculator's clock is now the location's: Pacific time, by its abbreviation.
  await expect(page.locator('.date-time-input', { has: page.getByLabel('Arrival', { exact: true }) })).toHaveText(/^P[SD]T$/);
});

test('a user with rate settings view only sees no editor, and the API refuses a forged save', async ({ page, playwright }) => {
  await signedIn(page, viewer, '/rate-selection');
  await expectHeading(page, 'Configure Rates');
  await page.goto('/rates/changes/edit/1');
  await expect(page.getByText('Access denied')).toBeVisible();

  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, viewer);
  const rates = await apiGet<RateLocation>(request, headers, '/rates/locations/1');
  const forged = await apiPost(request, headers, '/rates/locations/1/changes', {
    rate_set: rates.data.current!.rate_set,
    effective_at: '2099-01-01T00:00:00Z',
    reason: 'forged',
    schedule_version: rates.data.schedule_version,
  });
  expect(forged.status).toBe(403);
  await request.dispose();
});

test('a rate set with a gap is refused; fixed and scheduled, it is listed, and quoted once its time has come', async ({ page, playwright }) => {
  // Four screens and a move of the rates' clock: more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await signedIn(page, admin, '/rates/changes/edit/5');
  await expectHeading(page, 'Edit Rate Change');
  // The seeded LoDo Market Street rates: band 2 is one row, Monday to Friday 06:00–18:00 at $1.00 a quarter hour, 8 % tax.
  await expect(page.getByRole('group', { name: /^Band \d+:/ })).toHaveCount(4);
  await expect(page.getByRole('group', { name: /^Band 2:/ })).toHaveAccessibleName('Band 2: Mon–Fri 06:00–18:00 $1.00 / 15 min');
  await expect(page.getByLabel('Band 2 End')).toHaveValue('18:00');
  await expect(page.getByRole('button', { name: 'Schedule change' })).toBeDisabled();
  await page.getByLabel('Band 2 End').fill('17:00');
  await expect(page.getByText('Monday–Friday 17:00–18:00: no band covers this time.')).toBeVisible();
  await page.getByLabel('Why the rates change').fill('Winter prices (e2e)');
  await page.getByRole('button', { name: 'Schedule change' }).click();
  await expect(page.getByRole('alert')).toContainText('nothing was saved');
  expect(new URL(page.url()).pathname).toBe('/rates/changes/edit/5');

  await page.getByLabel('Band 2 End').fill('18:00');
  await page.getByLabel('Band 2 Price').fill('3.00');
  await expect(page.getByText('No problems: every minute of the week has exactly one band.')).toBeVisible();
  // 1 h on a Monday morning: 4 quarter hours, $4.32 now and $12.96 after, tax included.
  await expect(page.getByRole('region', { name: 'Before and after' }).getByRole('row', { name: /^1 h/ })).toContainText('$4.32$12.96');
  await page.getByRole('button', { name: 'Schedule change' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/rates');
  const row = page.getByRole('row').filter({ hasText: 'Winter prices (e2e)' }).first();
  await expect(row).toContainText('Scheduled');

  // The change takes effect tomorrow at 00:00 on the location's clock: move the rates' clock two days on.
  const request = await playwright.request.newContext();
  const moveClock = (offsetMs: number) => request.post(`${E2E_API_URL}/dev/rates-clock`, { data: { offsetMs } });
  try {
    expect((await moveClock(2 * 86_400_000)).ok()).toBe(true);
    await page.goto('/rate-selection?locationId=5');
    await expectHeading(page, 'Configure Rates');
    await page.getByLabel(/^Arrival/).fill('2026-03-02T09:00');
    await page.getByLabel(/^Departure/).fill('2026-03-02T10:10');
    // 5 started quarter hours at $3.00 and 8 % tax.
    await expect(page.getByText(/^Amount:/)).toContainText('$16.20');
  } finally {
    await moveClock(0);
    await request.dispose();
  }
});

test('Rate Configuration saves an edit, which the API then answers with', async ({ page, playwright }) => {
  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, admin);
  const before = (await apiGet<RateLocation>(request, headers, '/rates/locations/6')).data;
  const grace = String((before.config.graceMinutes + 1) % 30);
  await signedIn(page, admin, '/rate-config?locationId=6');
  await expectHeading(page, 'Rate Configuration');
  await page.getByLabel('Grace period (minutes)').fill(grace);
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const after = (await apiGet<RateLocation>(request, headers, '/rates/locations/6')).data;
  expect(after).toMatchObject({ config: { graceMinutes: Number(grace) }, config_version: before.config_version + 1 });
  await request.dispose();
});

test('8.75 in tax saves 8.75 %', async ({ page, playwright }) => {
  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, admin);
  await signedIn(page, admin, '/rate-config?locationId=4');
  await expectHeading(page, 'Rate Configuration');
  await page.getByLabel('Tax', { exact: true }).fill('8.75');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const after = (await apiGet<RateLocation>(request, headers, '/rates/locations/4')).data;
  expect(after.config.taxBasisPoints).toBe(875);
  await page.reload();
  await expect(page.getByLabel('Tax', { exact: true })).toHaveValue('8.75');
  await request.dispose();
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`the rate screens pass axe and fit the screen at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signedIn(page, admin, '/rate-selection?locationId=2');
    await expectHeading(page, 'Configure Rates');
    await expect(page.getByText(/^Amount:/)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'rate-selection').toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations, 'rate-selection').toEqual([]);
    await page.goto('/rate-config?locationId=2');
    await expectHeading(page, 'Rate Configuration');
    await expect(page.getByRole('button', { name: 'Save configuration' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'rate-config').toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations, 'rate-config').toEqual([]);
    await page.goto('/rates');
    await expectHeading(page, 'Rate Changes');
    // On a phone the filters are behind their button: the results come first.
    await expect(page.getByRole('table', { name: 'Rate changes at your locations' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'rates').toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations, 'rates').toEqual([]);
    await page.goto('/rates/changes/edit/2');
    await expectHeading(page, 'Edit Rate Change');
    await page.getByLabel('Band 1 End').fill('05:00');
    await expect(page.getByText(/no band covers this time/).first()).toBeVisible();
    // A band's times are shown whole, never cut to "00:".
    for (const label of ['Band 1 Start', 'Band 1 End']) {
      const input = page.getByLabel(label);
      expect(await input.evaluate((element) => element.scrollWidth <= element.clientWidth), label).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'rate editor').toBeLessThanOrEqual(width);
    expect((await new AxeBuilder({ page }).analyze()).violations, 'rate editor').toEqual([]);
  });
}
