import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from './test';
import { parse } from 'csv-parse/sync';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { Location } from '../../src/contract/locations';
import { apiGet, apiHeaders, apiPost, SECTION_USERS, seedSectionUsers } from './api-session';
import { expectHeading, signIn } from './sign-in';

// The list, export and edit tests work as the superuser, who sees every location whatever the roles say (a re-seed
// by another spec resets the demo roles); adding a location is tested as the admin, whose role gains it.
const superuser = demoAccount('superuser');
const admin = demoAccount('admin');
const PAGING_PREFIX = 'E2E Paging Lot';
type Page_<T> = { rows: T[]; total: number };

async function signedIn(page: Page, account: { email: string; password: string }, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  const pathname = url.split('?')[0]!;
  await expect.poll(() => new URL(page.url()).pathname).toBe(pathname);
}

async function newSignedInPage(browser: Browser, url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signedIn(page, superuser, url);
  return { context, page };
}

const locationsTable = (page: Page) => page.getByRole('table', { name: 'Locations you can view' });
const firstColumn = async (page: Page) =>
  (await locationsTable(page).locator('tbody tr td:first-child').allInnerTexts()).map((text) => text.trim());

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  await seedSectionUsers(request);
  // Twelve locations with a common name, so that a filtered list has two pages of ten (kept across retries).
  const headers = await apiHeaders(request, superuser);
  const existing = await apiGet<Page_<Location>>(request, headers, `/locations?q=${encodeURIComponent(PAGING_PREFIX)}&pageSize=100`);
  for (let index = 1; index <= 12; index++) {
    const name = `${PAGING_PREFIX} ${String(index).padStart(2, '0')}`;
    if (existing.data.rows.some((row) => row.name === name)) continue;
    const created = await apiPost(request, headers, '/locations', {
      name,
      address: `${index} Test Street, Chicago, IL`,
      time_zone: 'America/Chicago',
      capacity: 10 * index,
      status: index % 4 === 0 ? 'inactive' : 'active',
      enforcement_enabled: index % 2 === 0,
      grace_period_minutes: 5,
    });
    expect(created.status, created.message).toBe(200);
  }
  await request.dispose();
});

test('filter, sort and page live in the URL: they survive a reload, and back and forward', async ({ page }) => {
  await signedIn(page, superuser, '/locations');
  await page.getByLabel('Name or address').fill(PAGING_PREFIX);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=E2E/);
  await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('10');
  await expect(page).toHaveURL(/pageSize=10/);
  await locationsTable(page).getByRole('button', { name: /Spaces/ }).click();
  await expect(page).toHaveURL(/sort=capacity&dir=desc/);
  await expect(locationsTable(page).getByRole('columnheader', { name: /Spaces/ })).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => firstColumn(page)).toEqual(
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3].map((n) => `${PAGING_PREFIX} ${String(n).padStart(2, '0')}`),
  );
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText('11–12 of 12 locations · Page 2 of 2');
  const pageTwo = [`${PAGING_PREFIX} 02`, `${PAGING_PREFIX} 01`];
  await expect.poll(() => firstColumn(page)).toEqual(pageTwo);

  await page.reload();
  await expect.poll(() => firstColumn(page)).toEqual(pageTwo);
  await expect(page.getByLabel('Name or address')).toHaveValue(PAGING_PREFIX);
  await expect(locationsTable(page).getByRole('columnheader', { name: /Spaces/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('10');

  await page.goBack();
  await expect(page).not.toHaveURL(/page=2/);
  await expect.poll(async () => (await firstColumn(page))[0]).toBe(`${PAGING_PREFIX} 12`);
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=/);
  await expect(locationsTable(page).getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(async () => (await firstColumn(page))[0]).toBe(`${PAGING_PREFIX} 01`);
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/page=2/);
  await expect.poll(() => firstColumn(page)).toEqual(pageTwo);
});

test('the CSV export has exactly the rows the filters match, every page of them', async ({ page }) => {
  await signedIn(page, superuser, `/locations?q=${encodeURIComponent(PAGING_PREFIX)}&status=active&pageSize=10`);
  await expect(page.getByRole('navigation', { name: 'Pages' })).toContainText('of 9 locations');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^locations-\d{4}-\d{2}-\d{2}\.csv$/);
  const records = parse(await readFile((await download.path())!), { bom: true, columns: true }) as Record<string, string>[];
  const names = records.map((record) => record.Name).sort();
  const expected = [1, 2, 3, 5, 6, 7, 9, 10, 11].map((n) => `${PAGING_PREFIX} ${String(n).padStart(2, '0')}`);
  expect(names).toEqual(expected);
  expect(records.every((record) => record.Status === 'active')).toBe(true);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeEnabled();
});

test('a location added is shown on its success page and then in the list', async ({ page }) => {
  const name = `E2E Added ${Date.now()}`;
  await signedIn(page, admin, '/add-location');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Address' }).fill('500 W Madison St, Chicago, IL');
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption('America/Chicago');
  await page.getByRole('spinbutton', { name: 'Spaces' }).fill('120');
  await page.getByRole('button', { name: 'Add location' }).click();
  await expectHeading(page, 'Location Added');
  await expect(page.getByText(`${name} was added.`)).toBeVisible();
  await expect(page.getByRole('link', { name: `Edit ${name}` })).toBeVisible();
  await page.getByRole('link', { name: 'Back to locations' }).click();
  await page.getByLabel('Name or address').fill(name);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(locationsTable(page).getByRole('link', { name, exact: true })).toBeVisible();
});

// Issue 33: the zone used to default to the browser's (UTC here), saved unnoticed.
test('a new location cannot be saved without choosing a time zone', async ({ page, request }) => {
  const name = `E2E Zone ${Date.now()}`;
  await signedIn(page, admin, '/add-location');
  const zone = page.getByRole('combobox', { name: 'Time zone' });
  await expect(zone).toHaveValue('');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Address' }).fill('500 W Madison St, Chicago, IL 60661');
  await page.getByRole('spinbutton', { name: 'Spaces' }).fill('60');
  await page.getByRole('button', { name: 'Add location' }).click();
  await expect(zone).toBeFocused();
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  await expect(zone).toHaveAccessibleDescription(/Choose the time zone of this location\./);
  await expectHeading(page, 'Add Location');

  // The API refuses it as well, naming the field.
  const headers = await apiHeaders(request, admin);
  const forged = await apiPost<{ fieldErrors: Record<string, string> }>(request, headers, '/locations', {
    name: `${name} API`,
    address: '500 W Madison St, Chicago, IL 60661',
    capacity: 60,
    status: 'active',
    enforcement_enabled: true,
    grace_period_minutes: 10,
  });
  expect(forged.status).toBe(400);
  expect(forged.data.fieldErrors.time_zone).toBe('Choose the time zone of this location.');

  // One click takes the zone the address suggests; then it saves with it.
  await page.getByRole('button', { name: 'Use America/Chicago (suggested from the address)' }).click();
  await expect(zone).toHaveValue('America/Chicago');
  await expect(zone.locator('option:checked')).toHaveText(/^Central Time – Chicago \(C[SD]T\)$/);
  await page.getByRole('button', { name: 'Add location' }).click();
  await expectHeading(page, 'Location Added');
  const saved = await apiGet<Page_<Location>>(request, await apiHeaders(request, superuser), `/locations?q=${encodeURIComponent(name)}`);
  expect(saved.data.rows.map((row) => [row.name, row.time_zone])).toEqual([[name, 'America/Chicago']]);
});

test('an edit is saved and shows in the History panel', async ({ page }) => {
  await signedIn(page, superuser, '/locations?q=E2E%20Paging%20Lot%2005');
  await locationsTable(page).getByRole('link', { name: `${PAGING_PREFIX} 05`, exact: true }).click();
  await expectHeading(page, 'Edit Location');
  const spaces = page.getByRole('spinbutton', { name: 'Spaces' });
  const before = await spaces.inputValue();
  // One more space each run: Lot 05 stays between Lots 04 and 06 in the capacity order the paging test checks.
  const after = String(Number(before) + 1);
  await spaces.fill(after);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('region', { name: /Notifications/ }).getByText('Location saved')).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  const change = history.locator('.history-changes li').filter({ hasText: 'Spaces:' }).first();
  await expect(change.locator('del')).toHaveText(before);
  await expect(change.locator('ins')).toHaveText(after);
  await expect(history.locator('.history-head').first()).toContainText(/^Edited by .*superuser@example\.com/);
});

test('two people edit one location: the later save is told who changed it, and keeps what was typed', async ({ browser }) => {
  const url = '/locations?q=E2E%20Paging%20Lot%2006';
  const first = await newSignedInPage(browser, url);
  const second = await newSignedInPage(browser, url);
  for (const { page } of [first, second]) {
    await locationsTable(page).getByRole('link', { name: `${PAGING_PREFIX} 06`, exact: true }).click();
    await expectHeading(page, 'Edit Location');
  }
  const theirAddress = `6 Test Street, rear gate ${Date.now()}`;
  await first.page.getByRole('textbox', { name: 'Address' }).fill(theirAddress);
  await first.page.getByRole('button', { name: 'Save changes' }).click();
  await expect(first.page.getByRole('region', { name: /Notifications/ }).getByText('Location saved')).toBeVisible();

  const myName = `${PAGING_PREFIX} 06 (renamed)`;
  await second.page.getByRole('textbox', { name: 'Name' }).fill(myName);
  await second.page.getByRole('spinbutton', { name: /Grace period/ }).fill('12');
  await second.page.getByRole('button', { name: 'Save changes' }).click();
  const notice = second.page.getByRole('alert').filter({ hasText: 'This location was changed by' });
  await expect(notice).toContainText(/changed by .+ at .+(CST|CDT)/);
  await expect(second.page.getByRole('textbox', { name: 'Name' })).toHaveValue(myName);
  await expect(second.page.getByRole('spinbutton', { name: /Grace period/ })).toHaveValue('12');

  await notice.getByRole('button', { name: 'Reload their version' }).click();
  await expect(second.page.getByRole('textbox', { name: 'Address' })).toHaveValue(theirAddress);
  await expect(second.page.getByRole('textbox', { name: 'Name' })).toHaveValue(`${PAGING_PREFIX} 06`);
  await first.context.close();
  await second.context.close();
});

test('without location edit there, no edit action is offered, and the API refuses a forged edit', async ({ page }) => {
  const narrow = SECTION_USERS.narrow;
  await signedIn(page, narrow, '/locations');
  await expect(locationsTable(page).getByRole('link', { name: 'Edit Union Station Garage' })).toBeVisible();
  await expect(locationsTable(page).getByRole('link', { name: 'Navy Pier East Lot', exact: true })).toBeVisible();
  await expect(locationsTable(page).getByRole('link', { name: 'Edit Navy Pier East Lot' })).toHaveCount(0);

  await locationsTable(page).getByRole('link', { name: 'Navy Pier East Lot', exact: true }).click();
  await expectHeading(page, 'Location');
  await expect(page.getByRole('button', { name: /Save|Deactivate|Delete/ })).toHaveCount(0);
  await expect(page.getByRole('textbox')).toHaveCount(0);

  const headers = await apiHeaders(page.request, narrow);
  const current = await apiGet<Location>(page.request, headers, '/locations/2');
  expect(current.status).toBe(200);
  const { location_id: _id, updated_at: _at, ...fields } = current.data;
  const forged = await apiPost(page.request, headers, '/locations/2', { ...fields, name: 'Forged name' });
  expect(forged.status).toBe(403);
  const status = await apiPost(page.request, headers, '/locations/2/status', { status: 'inactive', version: fields.version });
  expect(status.status).toBe(403);
  expect((await apiGet<Location>(page.request, headers, '/locations/2')).data.name).toBe('Navy Pier East Lot');
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`the Locations screens pass axe and fit the screen at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const screens: [string, string][] = [
      ['/locations', 'Locations'],
      ['/add-location', 'Add Location'],
      ['/edit-location/1', 'Edit Location'],
    ];
    await signedIn(page, superuser, screens[0]![0]);
    for (const [url, heading] of screens) {
      await page.goto(url);
      await expectHeading(page, heading);
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      // A location's violations load after the page (a chunk of their own): checked with the rest.
      if (url.startsWith('/edit-location')) await expect(page.getByRole('region', { name: 'Violations and fines' })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(width);
      expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
    }
    // The column choice and a confirmation dialog, open.
    await page.goto('/locations');
    await page.getByText('Columns', { exact: true }).click();
    expect((await new AxeBuilder({ page }).analyze()).violations, 'column choice').toEqual([]);
    await page.goto('/edit-location/1');
    await page.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(page.getByRole('alertdialog')).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations, 'dialog').toEqual([]);
  });
}

// Issue 34, "Locations join their creators' access": the admin's role holds every feature at all locations, now and
// later, so the location they add is at once theirs in Configure Rates, Rate Configuration, promo codes and Transactions.
test('the admin adds a location and at once configures its rates and a promo code there', async ({ page, playwright }) => {
  const name = `E2E Joined ${Date.now()}`;
  await signedIn(page, admin, '/add-location');
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('textbox', { name: 'Address' }).fill('233 S Wacker Dr, Chicago, IL');
  await page.getByRole('combobox', { name: 'Time zone' }).selectOption('America/Chicago');
  await page.getByRole('spinbutton', { name: 'Spaces' }).fill('80');
  await page.getByRole('button', { name: 'Add location' }).click();
  await expectHeading(page, 'Location Added');
  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, admin);
  const found = await apiGet<Page_<Location>>(request, headers, `/locations?q=${encodeURIComponent(name)}`);
  const id = found.data.rows[0]!.location_id;

  await page.goto(`/rate-selection?locationId=${id}`);
  await expect(page.getByLabel('Location')).toHaveValue(String(id));
  await page.goto(`/rate-config?locationId=${id}`);
  await expectHeading(page, 'Rate Configuration');
  await page.getByLabel('Grace period (minutes)').fill('7');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  expect((await apiGet<{ config: { graceMinutes: number } }>(request, headers, `/rates/locations/${id}`)).data.config.graceMinutes).toBe(7);

  const code = `JOIN${Date.now().toString(36).toUpperCase()}`;
  await page.goto('/promo-codes/add');
  await expectHeading(page, 'Add promo code');
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByLabel('Discount type').selectOption({ label: 'Amount off' });
  await page.getByLabel('Amount off', { exact: true }).fill('2');
  await page.getByRole('checkbox', { name }).check();
  await page.getByLabel('Valid from').fill('2026-12-01T00:00');
  await page.getByLabel('Valid to').fill('2026-12-31T00:00');
  await page.getByRole('button', { name: 'Add promo code' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/promo-codes');
  await expect(page.getByRole('row', { name: new RegExp(code) })).toContainText('$2.00 off');

  const choices = await apiGet<{ location_id: number }[]>(request, headers, '/transactions/locations');
  expect(choices.data.map((choice) => choice.location_id)).toContain(id);
  await request.dispose();
});
