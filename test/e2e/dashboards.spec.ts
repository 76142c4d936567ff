import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './test';
import { parse } from 'csv-parse/sync';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { RealtimeSummary, SettledDashboard } from '../../src/contract/dashboards';
import { formatMoney } from '../../src/ui/format';
import { apiGet, apiHeaders, seedAccounts } from './api-session';
import { expectHeading, signIn } from './sign-in';
import { E2E_API_URL } from './stack';

const finance = demoAccount('finance');
/** Real-time and settled dashboards at Union Station Garage (1) only. */
const desk = {
  email: 'dashboard-desk@example.com',
  password: 'lightning-e2e',
  displayName: 'Dashboard Desk',
  permissions: { su: false, rd: { v: [1] }, sd: { v: [1] } },
} as const;

const seedDesk = (request: APIRequestContext) => seedAccounts(request, 'dashboards-e2e.json', [desk]);

/** A payment made now through the API (the dev/test stack's POST /dev/payments). */
async function pay(request: APIRequestContext, locationId: number, amountCents: number) {
  const response = await request.post(`${E2E_API_URL}/dev/payments`, { data: { locationId, amountCents } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { transaction_id: number } }).data.transaction_id;
}

async function signInAs(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await signIn(page, account.email, account.password);
  await expectHeading(page, 'Real Time Dashboard');
}

const figure = (page: Page, name: string) => page.locator(`[data-figure="${name}"]`);
const countOf = async (page: Page, name: string) => Number((await figure(page, name).innerText()).replace(/,/g, ''));

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  await seedDesk(request);
  await request.dispose();
});

test('a payment made through the API appears on an open real-time dashboard without a reload', async ({ page }) => {
  await signInAs(page, finance);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const before = await countOf(page, 'payments');
  // An amount no generated payment has ($2–$60 there), so the list shows this one.
  const transactionId = await pay(page.request, 1, 98_765);
  const latest = page.getByTestId('latest-payments');
  await expect(latest.locator(`[data-transaction-id="${transactionId}"]`)).toContainText(formatMoney(98_765));
  await expect(figure(page, 'payments')).toHaveText(new Intl.NumberFormat('en-US').format(before + 1));
  // The page was never reloaded: the chart that loaded after the figures is still the same canvas.
  await expect(page.locator('.dashboard-chart-canvas canvas')).toHaveCount(1);
});

test('the settled table equals the API’s numbers for a range, and the CSV equals the table', async ({ page }) => {
  await signInAs(page, finance);
  const headers = await apiHeaders(page.request, finance);
  // A custom range covering the generated history's settled days.
  const to = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const from = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  const api = await apiGet<SettledDashboard>(page.request, headers, `/dashboards/settled?from=${from}&to=${to}`);
  expect(api.status, api.message).toBe(200);
  expect(api.data.totals.payments).toBeGreaterThan(0);

  await page.goto(`/settled-dashboard?range=custom&from=${from}&to=${to}`);
  await expectHeading(page, 'Settled Dashboard');
  const table = page.getByTestId('settled-days');
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent ?? '')),
  );
  const money = (cents: number) => formatMoney(cents);
  const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
  expect(rows).toEqual(
    api.data.days.map((day) => [count(day.payments), money(day.gross_cents), money(day.fee_cents), money(day.refunded_cents), money(day.net_cents)]),
  );
  await expect(table.locator('tfoot td').last()).toHaveText(money(api.data.totals.net_cents));

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await (await download).path();
  const csv = parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
  // The CSV has a row per day and location: summed per day, in cents, it is the table.
  const cents = (text: string) => Math.round(Number(text) * 100);
  const perDay = new Map<string, number[]>();
  for (const row of csv) {
    const sums = perDay.get(row['Settled day']!) ?? [0, 0, 0, 0, 0];
    [row.Payments, row.Gross, row.Fees, row.Refunds, row.Net].forEach((value, index) => {
      sums[index]! += index === 0 ? Number(value) : cents(value!);
    });
    perDay.set(row['Settled day']!, sums);
  }
  const tableDays = api.data.days.filter((day) => day.payments > 0);
  expect(tableDays.map((day) => [day.day, ...(perDay.get(day.day) ?? [])])).toEqual(
    tableDays.map((day) => [day.day, day.payments, day.gross_cents, day.fee_cents, day.refunded_cents, day.net_cents]),
  );
  expect([...perDay.keys()].sort()).toEqual(tableDays.map((day) => day.day));
});

test('a user with the dashboards at one location never sees another location’s money', async ({ page }) => {
  await signInAs(page, desk);
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible();
  const locationsTable = page.getByTestId('realtime-locations');
  await expect(locationsTable.locator('tbody th')).toHaveText(['Union Station Garage']);
  await expect(page.getByRole('combobox', { name: 'Location' }).locator('option')).toHaveText(['All your locations', 'Union Station Garage']);

  // A payment elsewhere moves nothing here; one at Union Station does.
  const elsewhere = await pay(page.request, 2, 87_654);
  const here = await pay(page.request, 1, 76_543);
  const latest = page.getByTestId('latest-payments');
  await expect(latest.locator(`[data-transaction-id="${here}"]`)).toBeVisible();
  await expect(latest.locator(`[data-transaction-id="${elsewhere}"]`)).toHaveCount(0);
  await expect(latest).not.toContainText('Navy Pier');

  // The stream, the figures and the CSV refuse other locations when asked directly.
  const headers = await apiHeaders(page.request, desk);
  expect((await page.request.get(`${E2E_API_URL}/dashboards/realtime/stream?locationId=2`, { headers })).status()).toBe(403);
  expect((await apiGet(page.request, headers, '/dashboards/realtime?locationId=2')).status).toBe(403);
  expect((await page.request.get(`${E2E_API_URL}/dashboards/settled/export?locationId=2`, { headers })).status()).toBe(403);
  // The longest range a request may span (366 days), ending today.
  const lastDay = new Date().toISOString().slice(0, 10);
  const firstDay = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const tooLong = await page.request.get(`${E2E_API_URL}/dashboards/settled/export?from=2020-01-01&to=${lastDay}`, { headers });
  expect(tooLong.status()).toBe(400);
  const csv = await page.request.get(`${E2E_API_URL}/dashboards/settled/export?from=${firstDay}&to=${lastDay}`, { headers });
  expect(csv.status()).toBe(200);
  const locations = new Set((parse((await csv.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[]).map((row) => row.Location));
  expect([...locations]).toEqual(['Union Station Garage']);
  const summary = await apiGet<RealtimeSummary>(page.request, headers, '/dashboards/realtime');
  expect(summary.data.latest.every((payment) => payment.location_id === 1)).toBe(true);

  await page.goto('/settled-dashboard?range=last30');
  await expectHeading(page, 'Settled Dashboard');
  await expect(page.getByTestId('settled-locations').locator('tbody th')).toHaveText(['Union Station Garage']);
  // The range's days in words beside the picker; "Yesterday" is one day, the last of "Last 30 days".
  const last30 = await page.getByTestId('settled-range-days').locator('strong').textContent();
  expect(last30).toMatch(/^[A-Z][a-z]{2} \d{1,2}(, \d{4})? – [A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  await page.getByRole('combobox', { name: 'Range' }).selectOption('yesterday');
  await expect(page.getByTestId('settled-days').locator('tbody tr')).toHaveCount(1);
  await expect(page.getByTestId('settled-range-days').locator('strong')).toHaveText(last30!.split(' – ')[1]!);
  // A custom range longer than a year is refused at the field, before anything is sent.
  await page.getByRole('combobox', { name: 'Range' }).selectOption('custom');
  await page.getByLabel('From').fill('2020-01-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'at most 366 days' })).toBeVisible();
  await expect(page.getByLabel('From')).toHaveAttribute('aria-invalid', 'true');
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`the dashboards pass axe and fit the screen at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    // The chart library and its stylesheet load under the production CSP (the e2e console is the production build).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
    });
    await signInAs(page, finance);
    for (const [url, heading] of [
      ['/', 'Real Time Dashboard'],
      ['/settled-dashboard?range=last30', 'Settled Dashboard'],
    ] as const) {
      await page.goto(url);
      await expectHeading(page, heading);
      await expect(page.locator('.dashboard-chart-canvas canvas')).toHaveCount(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(width);
      expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), url).toEqual([]);
    }
  });
}
