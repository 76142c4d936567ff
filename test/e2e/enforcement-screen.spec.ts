import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { categoryOf, fetchRecords, type KnownRecord } from './enforcement-data';
import { expectHeading, signIn } from './sign-in';

const LABELS: Record<string, string> = {
  valid: 'Valid',
  expired: 'Expired',
  spothero: 'SpotHero',
  parkwhiz: 'ParkWhiz',
  monthly_parkers: 'Monthly parkers',
};

let officerRecords: KnownRecord[] = [];
let otherRecords: KnownRecord[] = [];

test.beforeAll(async ({ request }) => {
  officerRecords = await fetchRecords(request, demoAccount('officer'), [1, 2]);
  otherRecords = await fetchRecords(request, demoAccount('superuser'), [3, 4, 5, 6]);
  expect(officerRecords.length).toBeGreaterThan(100);
});

/** Expected totals per category for a query, by a plain filter over the officer's records (exact matching). */
function expectedTotals(query: string, locationId?: number): Record<string, number> {
  const now = Date.now() / 1000;
  const totals: Record<string, number> = { valid: 0, expired: 0, spothero: 0, parkwhiz: 0, monthly_parkers: 0 };
  for (const record of officerRecords) {
    if (locationId !== undefined && record.locationId !== locationId) continue;
    if (record.plate.toUpperCase().includes(query.toUpperCase())) totals[categoryOf(record, now)]! += 1;
  }
  return totals;
}

async function openSearch(page: Page) {
  await page.goto('/login');
  await signIn(page, demoAccount('officer').email, demoAccount('officer').password);
  // An officer's only section is Enforcement: sign-in lands on the search.
  await expect(page).toHaveURL(/\/list$/);
  await expectHeading(page, 'Enforcement');
  await expect(page.getByLabel('License plate')).toBeFocused();
  // The first, fresh sync fills the store before search answers; the status line says when it is done.
  const line = page.getByRole('status').filter({ hasText: /^(Online|Offline) · / });
  await expect(line).toContainText('data synced just now', { timeout: 45_000 });
  await expect(line).not.toContainText('Syncing', { timeout: 45_000 });
  await expect(line).not.toContainText('Downloading', { timeout: 45_000 });
}

async function expectTotals(page: Page, totals: Record<string, number>) {
  for (const [category, total] of Object.entries(totals)) {
    await expect(page.getByRole('heading', { level: 2, name: `${LABELS[category]} (${total.toLocaleString('en-US')})` })).toBeVisible();
  }
}

test.describe('the enforcement screen', () => {
  test('finds a plate of each category in the right category with the right totals', async ({ page }) => {
    await openSearch(page);
    await page.getByRole('checkbox', { name: /Similar characters/ }).uncheck();
    const now = Date.now() / 1000;
    for (const category of Object.keys(LABELS)) {
      const record = officerRecords.find((r) => categoryOf(r, now) === category);
      expect(record, `a ${category} record in the seed`).toBeDefined();
      await page.getByLabel('License plate').fill(record!.plate.toLowerCase());
      await expectTotals(page, expectedTotals(record!.plate));
      const section = page.getByRole('region', { name: new RegExp(`^${LABELS[category]} \\(`) });
      await expect(section.getByText(record!.plate, { exact: true }).first()).toBeVisible();
    }
  });

  test('pages through a category and limits the search to one location', async ({ page }) => {
    await openSearch(page);
    await page.getByRole('checkbox', { name: /Similar characters/ }).uncheck();
    await page.getByLabel('License plate').fill('1');
    const totals = expectedTotals('1');
    await expectTotals(page, totals);
    const pager = page.getByRole('navigation', { name: 'Valid pages' });
    await expect(pager.getByText(`Page 1 of ${Math.ceil(totals.valid! / 10)}`)).toBeVisible();
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pager.getByText(`Page 2 of ${Math.ceil(totals.valid! / 10)}`)).toBeVisible();

    await page.getByLabel('Location').selectOption({ label: 'Navy Pier East Lot' });
    await expectTotals(page, expectedTotals('1', 2));
    await expect(page.locator('.plate-row-location').filter({ hasText: 'Union Station Garage' })).toHaveCount(0);
  });

  test('never shows a plate of another location', async ({ page }) => {
    const officerPlates = new Set(officerRecords.map((r) => r.plate));
    const foreign = otherRecords.find((r) => !officerPlates.has(r.plate) && r.plate.length >= 6);
    expect(foreign).toBeDefined();
    await openSearch(page);
    await page.getByRole('checkbox', { name: /Similar characters/ }).uncheck();
    await page.getByLabel('License plate').fill(foreign!.plate);
    const totals = expectedTotals(foreign!.plate);
    if (Object.values(totals).every((n) => n === 0)) {
      await expect(page.getByText(`No record matches “${foreign!.plate}”`)).toBeVisible();
    } else {
      await expectTotals(page, totals);
    }
    await expect(page.getByText(foreign!.plate, { exact: true })).toHaveCount(0);
  });

  test('finds plates through misread characters, exact matches first and similar ones marked', async ({ page }) => {
    const record = officerRecords.find((r) => /[O0]/.test(r.plate));
    expect(record).toBeDefined();
    const misread = record!.plate.replace(/[O0]/, (c) => (c === 'O' ? '0' : 'O'));
    await openSearch(page);
    await page.getByLabel('License plate').fill(misread);
    const similarRow = page.locator('.plate-row').filter({ hasText: record!.plate }).first();
    await expect(similarRow).toBeVisible();
    await expect(similarRow.getByText('Similar characters')).toBeVisible();
    await page.getByRole('checkbox', { name: /Similar characters/ }).uncheck();
    await expect(page.locator('.plate-row').filter({ hasText: record!.plate })).toHaveCount(0);
  });

  for (const { name, width, height } of [
    { name: 'phone', width: 360, height: 740 },
    { name: 'desktop', width: 1280, height: 800 },
  ]) {
    test(`has no accessibility violations and fits at ${name} width`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height });
      await openSearch(page);
      await page.getByLabel('License plate').fill('1');
      await expect(page.locator('.plate-row').first()).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`list-${name}.png`), fullPage: false });
    });
  }
});
