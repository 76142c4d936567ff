import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { TransactionRow } from '../../src/contract/transactions';
import { apiGet, apiHeaders, SECTION_USERS, seedSectionUsers } from './api-session';
import { expectHeading, signIn } from './sign-in';

const finance = demoAccount('finance');
const narrow = SECTION_USERS.narrow;
type Found = { rows: TransactionRow[]; total: number };

async function signInAs(page: Page, account: { email: string; password: string }, home: string) {
  await page.goto('/login');
  await signIn(page, account.email, account.password);
  await expectHeading(page, home);
}

const results = (page: Page) => page.getByRole('table', { name: 'Transactions found' });

/** A seeded payment with a phone, found through the API as the tests' user sees it (ids are never hard-coded). */
async function seededPayment(page: Page, account: { email: string; password: string }, query: string) {
  const headers = await apiHeaders(page.request, account);
  const found = await apiGet<Found>(page.request, headers, `/transactions?pageSize=100&${query}`);
  expect(found.status, found.message).toBe(200);
  const payment = found.data.rows.find((row) => row.phone_last4 && row.license_plate.length >= 5);
  if (!payment) throw new Error(`no seeded payment with a phone for ${query}`);
  return { payment, headers };
}

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  await seedSectionUsers(request);
  await request.dispose();
});

test('a plate fragment and the last 4 digits of the phone find a seeded payment, which opens with its details', async ({ page }) => {
  const { payment } = await seededPayment(page, finance, 'sort=payment_time');
  await signInAs(page, finance, 'Real Time Dashboard');
  const fragment = payment.license_plate.slice(1, 4);

  await page.goto('/refund-portal/transactions');
  await expectHeading(page, 'Transactions');
  await page.getByLabel('License plate').fill(fragment);
  await page.getByLabel('Phone (last 4 digits)').fill(payment.phone_last4!);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`plate=${fragment}.*phone=${payment.phone_last4}|phone=${payment.phone_last4}.*plate=${fragment}`));
  const linkName = `Transaction ${payment.transaction_id}`;
  const link = results(page).getByRole('link', { name: linkName });
  await expect(link).toBeVisible();
  const row = results(page).getByRole('row').filter({ has: page.getByRole('link', { name: linkName }) });
  await expect(row).toContainText(payment.license_plate);
  await expect(row).toContainText(`•••• •••• ${payment.phone_last4}`);
  const searchUrl = page.url();

  await link.click();
  await expectHeading(page, `Transaction ${payment.transaction_id}`);
  await expect(page.getByText(payment.location_name, { exact: true })).toBeVisible();
  await expect(page.getByText(`•••• •••• ${payment.phone_last4}`)).toBeVisible();
  // Start and expiry in the location's zone, with its abbreviation.
  await expect(page.locator('.details-list')).toContainText(/Start.+\d{1,2}:\d{2} (AM|PM) [A-Z]{2,4}/s);
  await expect(page.getByRole('region', { name: 'History' })).toBeVisible();
  await page.getByRole('link', { name: '← Back to the search' }).click();
  await expect(page).toHaveURL(searchUrl);
  await expect(page.getByLabel('License plate')).toHaveValue(fragment);
  await expect(results(page).getByRole('link', { name: `Transaction ${payment.transaction_id}` })).toBeVisible();
});

test('/transactions without an id is the search', async ({ page }) => {
  await signInAs(page, finance, 'Real Time Dashboard');
  await page.goto('/transactions?plate=AB');
  await expect(page).toHaveURL(/\/refund-portal\/transactions\?plate=AB$/);
  await expectHeading(page, 'Transactions');
});

test('a payment outside the user’s refund-portal locations is never listed, found or opened', async ({ page }) => {
  // Found through the API as finance (every location); the narrow user holds the refund portal at Union Station
  // Garage (1) only.
  const { payment: elsewhere } = await seededPayment(page, finance, 'locationId=2');
  await page.goto('/login');
  await signIn(page, narrow.email, narrow.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/refund-portal/transactions');
  await expectHeading(page, 'Transactions');
  const locationChoice = page.getByRole('combobox', { name: 'Location' });
  await expect(locationChoice.locator('option')).toHaveText(['All your locations', 'Union Station Garage']);
  await expect(results(page).getByRole('row').nth(1)).toBeVisible();
  const listedLocations = await results(page).locator('tbody tr td:nth-child(3)').allInnerTexts();
  expect(new Set(listedLocations)).toEqual(new Set(['Union Station Garage']));

  await page.getByLabel('Transaction ID').fill(String(elsewhere.transaction_id));
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(/No transactions match/)).toBeVisible();
  await page.getByLabel('Transaction ID').fill('');
  await page.getByLabel('License plate').fill(elsewhere.license_plate);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(/No transactions match|transactions? ·/)).toBeVisible();
  await expect(results(page).getByRole('link', { name: `Transaction ${elsewhere.transaction_id}` })).toHaveCount(0);

  await page.goto(`/transactions/${elsewhere.transaction_id}`);
  await expectHeading(page, 'Transaction not found');
  await expect(page.getByText('not at one of your locations')).toBeVisible();

  const headers = await apiHeaders(page.request, narrow);
  expect((await apiGet(page.request, headers, `/transactions/${elsewhere.transaction_id}`)).status).toBe(404);
  expect((await apiGet(page.request, headers, `/transactions/${elsewhere.transaction_id}/history`)).status).toBe(404);
  const forced = await apiGet<Found>(page.request, headers, `/transactions?locationId=2`);
  expect(forced.status === 200 ? forced.data.rows : []).toEqual([]);
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`the Transactions screens pass axe and fit the screen at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const { payment } = await seededPayment(page, finance, 'sort=payment_time');
    await signInAs(page, finance, 'Real Time Dashboard');
    const screens: [string, string][] = [
      ['/refund-portal/transactions', 'Transactions'],
      [`/refund-portal/transactions?phone=${payment.phone_last4}&plate=ZZZZZZ`, 'Transactions'],
      [`/transactions/${payment.transaction_id}`, `Transaction ${payment.transaction_id}`],
      ['/transactions/999999999999', 'Transaction not found'],
    ];
    for (const [url, heading] of screens) {
      await page.goto(url);
      await expectHeading(page, heading);
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(width);
      expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
    }
  });
}
