import { expect, test, type Page } from '@playwright/test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { signIn } from './sign-in';

// Every admin list and dashboard, as the superuser (who may open them all): no page is wider than the window at a
// desktop's and a phone's width; a table wider than its box scrolls inside it (docs/sections.md "List screen").
const superuser = demoAccount('superuser');
const ROUTES = [
  '/locations',
  '/promo-codes',
  '/refund-portal',
  '/refund-portal/transactions',
  '/rates',
  '/user-config',
  '/role-Config',
  '/enforcement-lite',
  '/',
  '/settled-dashboard',
];
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
];

/** The screen has its data: no skeleton, no "Loading …" line. */
async function settled(page: Page) {
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0);
}

/** How far the page reaches past the window, and the outermost elements that reach past it (to say why). */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const right = element.getBoundingClientRect().right;
      const parentRight = element.parentElement?.getBoundingClientRect().right ?? 0;
      if (right > width + 1 && parentRight <= width + 1 && culprits.length < 5) {
        culprits.push(`${element.tagName.toLowerCase()}.${element.className} (${Math.round(right)} px)`);
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, culprits };
  });
}

test.beforeEach(async ({ page }) => {
  await page.goto('/login?redirect=%2Flocations');
  await signIn(page, superuser.email, superuser.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/locations');
});

for (const { name, width, height } of SIZES) {
  test(`every admin list fits the window at ${name} width (${width} px)`, async ({ page }) => {
    // Eleven screens, the first visits of a fresh stack among them.
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    for (const url of ROUTES) {
      await page.goto(url);
      await settled(page);
      const fit = await overflow(page);
      expect.soft(fit.scrollWidth, `${url}: ${fit.culprits.join(', ')}`).toBeLessThanOrEqual(fit.innerWidth);
    }

    // A payment's detail, opened from the search.
    await page.goto('/refund-portal/transactions');
    const results = page.getByRole('table', { name: 'Transactions found' });
    await results.locator('tbody tr').first().getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 1, name: /^Transaction \d+/ })).toBeVisible();
    const detail = await overflow(page);
    expect.soft(detail.scrollWidth, `transaction detail: ${detail.culprits.join(', ')}`).toBeLessThanOrEqual(detail.innerWidth);
  });
}

test('on a phone the transaction search shows its results first, its filters behind "Filters (n)"', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/refund-portal/transactions?status=paid');
  const results = page.getByRole('table', { name: 'Transactions found' });
  await expect(results.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('search', { name: 'Search transactions' })).toBeHidden();

  const toggle = page.getByRole('button', { name: 'Filters (1)' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await page.getByLabel('License plate').fill('ZZZZ9999');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  // The search applied, the panel closes again on what it found.
  await expect(page.getByRole('button', { name: 'Filters (2)' })).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText(/No transactions match/)).toBeVisible();

  // The table scrolls in its own box, with the hint, and the page does not.
  await page.goto('/refund-portal/transactions');
  await expect(page.getByText('Scroll sideways for more columns →')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
