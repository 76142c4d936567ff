import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { Paged } from '../../src/contract/lists';
import type { PromoCode } from '../../src/contract/promo-codes';
import { apiGet, apiHeaders, apiPost } from './api-session';
import { expectHeading, signIn } from './sign-in';

// Issue 33's promo-code jobs: money typed in dollars, times on the code's locations' clock, and a History that shows
// every save at once, in words.
const admin = demoAccount('admin');

async function signedIn(page: Page, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, admin.email, admin.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url);
}

/** A code no other run has used: 4 to 20 letters and digits. */
const freshCode = (prefix: string) => `${prefix}${Date.now().toString(36).toUpperCase()}`;

test('typing 5 in a promo code’s amount saves $5.00 off', async ({ page, playwright }) => {
  const code = freshCode('FIVE');
  await signedIn(page, '/promo-codes/add');
  await expectHeading(page, 'Add promo code');
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByLabel('Discount type').selectOption({ label: 'Amount off' });
  await page.getByLabel('Amount off', { exact: true }).fill('5');
  await page.getByRole('checkbox', { name: 'Union Station Garage' }).check();
  await page.getByLabel('Valid from').fill('2026-12-01T00:00');
  await page.getByLabel('Valid to').fill('2026-12-31T00:00');
  await page.getByRole('button', { name: 'Add promo code' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/promo-codes');
  await expect(page.getByRole('row', { name: new RegExp(code) })).toContainText('$5.00 off');

  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, admin);
  const found = await apiGet<Paged<PromoCode>>(request, headers, `/promo-codes?q=${code}`);
  // Five dollars, and midnight on Chicago's clock (UTC−6 in December).
  expect(found.data.rows[0]).toMatchObject({ code, discount_type: 'amount', discount_value: 500, valid_from: '2026-12-01T06:00:00.000Z' });
  await request.dispose();
});

test('an edit shows in the promo code’s History at once, in words and local time', async ({ page, playwright }) => {
  const request = await playwright.request.newContext();
  const headers = await apiHeaders(request, admin);
  const created = await apiPost<PromoCode>(request, headers, '/promo-codes', {
    code: freshCode('EDIT'),
    discount_type: 'amount',
    discount_value: 500,
    multi_use: true,
    total_cap: null,
    per_plate_cap: null,
    valid_from: '2026-12-01T06:00:00.000Z',
    valid_to: '2026-12-31T06:00:00.000Z',
    location_ids: [1],
    active: true,
  });
  expect(created.status).toBe(200);
  await request.dispose();

  await signedIn(page, `/promo-codes/edit/${created.data.promo_code_id}`);
  const history = page.getByRole('region', { name: 'History' });
  await expect(history).toContainText('Created');
  await expect(history).toContainText('Union Station Garage');
  await expect(history).toContainText('Dec 1, 2026, 12:00 AM CST');
  await expect(page.getByLabel('Valid from')).toHaveValue('2026-12-01T00:00');

  await page.getByLabel('Amount off', { exact: true }).fill('7.50');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const edited = history.getByRole('listitem').filter({ hasText: 'Edited' });
  await expect(edited).toContainText('$5.00 off');
  await expect(edited).toContainText('$7.50 off');

  await page.getByRole('button', { name: 'Deactivate' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(history.getByRole('listitem').filter({ hasText: /^Deactivated by/ })).toContainText(/Active:\s*Active\W+(changed to\s*)?Deactivated/);
  expect(await history.innerText()).not.toMatch(/UTC|\d{4}-\d{2}-\d{2}T\d{2}/);
});

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
]) {
  test(`the promo code screens pass axe and fit the screen at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await signedIn(page, '/promo-codes');
    await expectHeading(page, 'Promo Codes');
    await expect(page.getByRole('table', { name: 'Promo codes at your locations' })).toBeVisible();
    for (const url of ['/promo-codes', '/promo-codes/add']) {
      if (url !== '/promo-codes') await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(width);
      expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
      // Money and times read as a person reads them: no storage units, no UTC.
      expect(await page.locator('main').innerText(), url).not.toMatch(/\(UTC\)|\(cents|in cents|hundredths of a percent|\d{4}-\d{2}-\d{2}T\d{2}/);
    }
  });
}
