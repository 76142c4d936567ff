import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { apiHeaders, categoryOf, expectedHeadlineIn, fetchRecords, fullyRefunded, type KnownRecord } from './enforcement-data';
import { E2E_API_URL } from './stack';
import { expectHeading, signIn, signInOfficer } from './sign-in';

/**
 * The officer in the field (issue 15): a 360 px phone with the on-screen keyboard open (a 360 × 400 viewport), the
 * verdict first, compact results in the officer's order, paging to the first row, and a logout that asks first when
 * offline and never hands the next user the previous user's page.
 */

const PHONE_WITH_KEYBOARD = { width: 360, height: 400 };
let records: KnownRecord[] = [];

test.beforeAll(async ({ request }) => {
  records = await fetchRecords(request, demoAccount('officer'), [1, 2]);
  expect(records.length).toBeGreaterThan(100);
});

const expectedHeadline = (plate: string) => expectedHeadlineIn(records, plate);

/** A plate of the officer's whose verdict is `headline` (full plates only, so the verdict speaks of one plate). */
function plateWith(headline: string): string {
  const plate = records.map((r) => r.plate).find((p) => expectedHeadline(p) === headline);
  expect(plate, `a plate whose verdict is ${headline}`).toBeDefined();
  return plate!;
}

/** The element lies wholly inside the viewport. */
async function expectFullyVisible(page: Page, selector: string) {
  const box = await page.locator(selector).boundingBox();
  expect(box, selector).not.toBeNull();
  const viewport = page.viewportSize()!;
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
}

/** The expiry moments (epoch ms) of a category's rows, top to bottom. */
async function expiries(page: Page, category: string): Promise<number[]> {
  const times = page.locator(`.plate-row-${category} time`);
  return (await times.evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''))).map((iso) => Date.parse(iso));
}

test.describe('the officer in the field', () => {
  test('a verdict at a glance for every kind of plate, with the keyboard open; the officer order; paging to the first row', async ({
    page,
  }) => {
    await page.setViewportSize(PHONE_WITH_KEYBOARD);
    await signInOfficer(page);
    const field = page.getByLabel('License plate');
    const cases = [
      ['PAID', plateWith('PAID'), /\bverdict-ok\b/],
      ['EXPIRED', plateWith('EXPIRED'), /\bverdict-stop\b/],
      ['BOOKED', plateWith('BOOKED'), /\bverdict-ok\b/],
      ['MONTHLY PARKER', plateWith('MONTHLY PARKER'), /\bverdict-(ok|warn)\b/],
      ['NO RECORD', 'QQ9QQ9Q', /\bverdict-stop\b/],
    ] as const;
    for (const [headline, plate, tone] of cases) {
      await field.fill(plate);
      await expect(page.locator('.verdict-headline')).toHaveText(headline);
      await expect(page.locator('.verdict')).toHaveClass(tone);
      if (headline !== 'NO RECORD') await expect(page.locator('.verdict-detail')).toContainText(plate);
      await expectFullyVisible(page, '.verdict');
      await expectFullyVisible(page, '.plate-input');
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_WITH_KEYBOARD.width);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    // Nothing found with similar characters off: the verdict offers to turn them on.
    await page.getByRole('checkbox', { name: /Similar characters/ }).uncheck();
    await expect(page.getByRole('button', { name: /Search again with similar characters/ })).toBeVisible();

    // The officer's order within each category, on a short query with many matches.
    await field.fill('1');
    await expect(page.getByRole('navigation', { name: 'Valid pages' })).toBeVisible();
    await expect(page.locator('.plate-row-parkwhiz').first()).toBeVisible();
    await expect.poll(async () => (await expiries(page, 'valid')).length).toBe(10);
    const valid = await expiries(page, 'valid');
    expect(valid, 'valid: soonest to expire first').toEqual([...valid].sort((a, b) => a - b));
    expect(valid[0]).toBeGreaterThan(Date.now() - 60_000);
    const expired = await expiries(page, 'expired');
    expect(expired.length).toBeGreaterThan(0);
    expect(expired, 'expired: most recent first').toEqual([...expired].sort((a, b) => b - a));
    for (const source of ['spothero', 'parkwhiz']) {
      const badges = await page.locator(`.plate-row-${source} .badge-active, .plate-row-${source} .badge-ended`).allTextContents();
      const firstEnded = badges.indexOf('Ended');
      if (firstEnded >= 0) expect(badges.slice(firstEnded), `${source}: active bookings first`).not.toContain('Active');
      // An active booking looks different from an ended one.
      if (badges.includes('Active') && badges.includes('Ended')) {
        const [active, ended] = await Promise.all(
          ['Active', 'Ended'].map((label) =>
            page.locator(`.plate-row-${source}`).filter({ has: page.getByText(label, { exact: true }) }).first().evaluate((el) => getComputedStyle(el).backgroundColor),
          ),
        );
        expect(active).not.toBe(ended);
      }
    }

    // Next: the category's first row comes into view, not the bottom of the new page.
    const pager = page.getByRole('navigation', { name: 'Valid pages' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await expect(pager.getByText(/^Page 2 of/)).toBeVisible();
    const heading = page.getByRole('heading', { level: 2, name: /^Valid \(/ });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    await expect(page.locator('.plate-row-valid').first()).toBeInViewport();
  });

  test('a payment refunded in full reads REFUNDED after the next sync; a partial refund still reads PAID', async ({ page, request }) => {
    await signInOfficer(page);
    const now = Date.now() / 1000;
    // Plates paid by one payment alone, with over an hour left: only the refund can change their verdict in this test.
    const paidOnce = records
      .map((r) => r.plate)
      .filter((plate) => {
        const mine = records.filter((r) => r.plate.toUpperCase() === plate.toUpperCase());
        return mine.length === 1 && categoryOf(mine[0]!, now + 3600) === 'valid' && !fullyRefunded(mine[0]!) && mine[0]!.paid >= 1;
      });
    expect(paidOnce.length, 'two plates paid by one payment').toBeGreaterThanOrEqual(2);
    const [full, partial] = paidOnce.map((plate) => records.find((r) => r.plate === plate)!);
    const field = page.getByLabel('License plate');
    for (const record of [full!, partial!]) {
      await field.fill(record.plate);
      await expect(page.locator('.verdict-headline')).toHaveText('PAID');
    }

    // Finance refunds through the API (the admin holds refunds everywhere): all of one payment, a cent of the other.
    const admin = demoAccount('admin');
    const headers = await apiHeaders(request, admin.email, admin.password);
    for (const [record, cents] of [[full!, Math.round((full!.paid - full!.refunded) * 100)], [partial!, 1]] as const) {
      const response = await request.post(`${E2E_API_URL}/transactions/${record.transactionId}/refunds`, {
        headers: { ...headers, 'Idempotency-Key': `e2e-officer-refund-${record.transactionId}-${Date.now()}` },
        data: { amount_cents: cents, reason: 'Gate did not open' },
      });
      expect(response.status(), await response.text()).toBe(200);
      record.refunded += cents / 100; // the later tests pick plates by verdict
    }

    await page.getByRole('button', { name: 'Details', exact: true }).click();
    await page.getByRole('button', { name: 'Sync now' }).click();
    // Asked again until the sync has brought the refund (an answer is not recomputed when the store changes).
    await expect(async () => {
      await field.fill('');
      await field.fill(full!.plate);
      await expect(page.locator('.verdict-headline')).toHaveText('REFUNDED', { timeout: 1000 });
    }).toPass({ timeout: 45_000 });
    await expect(page.locator('.verdict')).toHaveClass(/\bverdict-stop\b/);
    await expect(page.locator('.verdict-detail')).toContainText(full!.plate);
    await field.fill(partial!.plate);
    await expect(page.locator('.verdict-headline')).toHaveText('PAID');
  });

  test('logout asks first when offline; after a logout the next user lands on their own home', async ({ page, context }) => {
    await page.setViewportSize(PHONE_WITH_KEYBOARD);
    await signInOfficer(page);

    await context.setOffline(true);
    await expect(page.getByRole('status').filter({ hasText: /^Offline · / })).toBeVisible();
    // On a phone the sidebar is a drawer, opened from the top bar.
    await page.getByRole('button', { name: 'Open sidebar' }).click();
    await page.getByRole('link', { name: 'Logout' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Log out while offline?' });
    await expect(dialog).toContainText('cannot be downloaded again until the network returns');
    await dialog.getByRole('button', { name: 'Stay signed in' }).click();
    await expect(dialog).toBeHidden();
    await expectHeading(page, 'Enforcement');
    await page.getByLabel('License plate').fill(plateWith('PAID'));
    await expect(page.locator('.verdict-headline')).toHaveText('PAID');

    await page.getByRole('button', { name: 'Open sidebar' }).click();
    await page.getByRole('link', { name: 'Logout' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Log out and delete' }).click();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // A deliberate logout forgets the page: /login carries no redirect to the previous user's /list.
    await expect(page).toHaveURL(/\/login$/);

    await context.setOffline(false);
    const admin = demoAccount('admin');
    await signIn(page, admin.email, admin.password);
    await expectHeading(page, 'Real Time Dashboard');
    await expect(page).toHaveURL(/\/$/);
  });
});
