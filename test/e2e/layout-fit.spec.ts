import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { apiGet, apiHeaders, apiPost } from './api-session';
import { signIn } from './sign-in';

// Every admin list and dashboard, as the superuser (who may open them all): no page is wider than the window at a
// desktop's and a phone's width; a table wider than its box scrolls inside it (docs/sections.md "List screen").
const superuser = demoAccount('superuser');
const ROUTES = [
  '/',
  '/settled-dashboard',
  '/rate-selection',
  '/rates',
  '/rate-config',
  '/promo-codes',
  '/refund-portal',
  '/refund-portal/transactions',
  '/user-config',
  '/role-Config',
  '/locations',
  '/add-location',
  '/mailing',
  '/database-copy',
  '/enforcement-lite',
  '/enforcement-lite/add-location',
  '/enforcement-lite/add-user',
  '/citations',
];
/** Detail and edit screens: the first row of the list the API gives the superuser names the record. */
const RECORD_ROUTES = [
  { list: '/refund-tickets?pageSize=10', id: 'ticket_id', route: '/refund-portal/ticket-info/' },
  { list: '/transactions?pageSize=10', id: 'transaction_id', route: '/transactions/' },
  { list: '/locations?pageSize=10', id: 'location_id', route: '/edit-location/' },
  { list: '/enforcement-lite/locations?pageSize=10', id: 'location_id', route: '/enforcement-lite/edit-location/' },
  { list: '/enforcement-lite/officers?pageSize=10', id: 'user_id', route: '/enforcement-lite/edit-user/' },
  { list: '/citations?pageSize=10', id: 'citation_id', route: '/citations/' },
] as const;
/** A fresh stack has no refund tickets and no lite records: one of each is added through the API, once. */
const run = Date.now().toString(36);
const ADD_RECORD: Partial<Record<string, (page: Page, headers: Record<string, string>) => Promise<unknown>>> = {
  '/refund-tickets?pageSize=10': async (page, headers) => {
    // The newest payment: refunds.spec.ts refunds the oldest ones.
    const paid = await apiGet<{ rows: { transaction_id: number }[] }>(page.request, headers, '/transactions?status=paid&pageSize=10&sort=transaction_id&dir=desc');
    return apiPost(page.request, headers, '/refund-tickets', {
      transaction_id: paid.data.rows[0]?.transaction_id,
      amount_cents: 100,
      reason: 'Layout check',
    });
  },
  '/enforcement-lite/locations?pageSize=10': (page, headers) =>
    apiPost(page.request, headers, '/enforcement-lite/locations', {
      name: `E2E Layout Lite Lot ${run}`,
      address: '5 Corner St, Austin, TX 78701',
      time_zone: 'America/Chicago',
      capacity: 40,
      grace_period_minutes: 5,
      operator_name: `Operator ${run}`,
      status: 'active',
    }),
  // A fresh stack has no citations: one written through the API (the superuser may write them anywhere).
  '/citations?pageSize=10': (page, headers) =>
    apiPost(page.request, headers, '/citations', {
      citation_id: crypto.randomUUID(),
      location_id: 1,
      license_plate: 'LAYOUT1',
      issued_at: new Date().toISOString(),
      violation: 'no_payment',
      fine_cents: 5000,
      notes: 'Layout check',
      verdict: { headline: 'NO RECORD', detail: 'No record matches “LAYOUT1”.' },
    }),
  // An officer enforces at least one lite location (the one above, when the stack had none).
  '/enforcement-lite/officers?pageSize=10': async (page, headers) => {
    const lite = await apiGet<{ rows: { location_id: number }[] }>(page.request, headers, '/enforcement-lite/locations?pageSize=10');
    return apiPost(page.request, headers, '/enforcement-lite/officers', {
      email: `layout-officer-${run}@example.com`,
      display_name: `Layout Officer ${run}`,
      location_ids: lite.data.rows.slice(0, 1).map((row) => row.location_id),
    });
  },
};
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

/** The detail and edit routes, with ids found from the lists; a list with no rows is named, to fail the test. */
async function recordRoutes(page: Page) {
  const headers = await apiHeaders(page.request, superuser);
  const routes: string[] = [];
  const firstRow = (list: string) => apiGet<{ rows: Record<string, number>[] }>(page.request, headers, list);
  for (const { list, id, route } of RECORD_ROUTES) {
    let found = await firstRow(list);
    const add = ADD_RECORD[list];
    if (!found.data?.rows?.[0] && add) {
      await add(page, headers);
      found = await firstRow(list);
    }
    const first = found.data?.rows?.[0]?.[id];
    expect.soft(first, `no row in ${list} (status ${found.status}) to open ${route}{id}`).toBeDefined();
    if (first !== undefined) routes.push(`${route}${first}`);
  }
  return routes;
}

/** Text a staff member should never read: raw ISO timestamps, or a "(UTC)" label (spec: local dates and times). */
function storageText(page: Page) {
  return page.evaluate(() =>
    document.body.innerText
      .split('\n')
      .filter((line) => /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(line) || line.includes('(UTC)'))
      .slice(0, 5),
  );
}

/** Visible money figures broken over more than one line (e.g. "$1,234" then ".56"). */
function brokenMoney(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.money'))
      .filter((element) => element.getClientRects().length > 0 && element.checkVisibility())
      .filter((element) => {
        const lineHeight = parseFloat(getComputedStyle(element).lineHeight) || parseFloat(getComputedStyle(element).fontSize) * 1.2;
        return element.getClientRects().length !== 1 && element.getBoundingClientRect().height > 1.5 * lineHeight;
      })
      .map((element) => `"${element.innerText}" in ${element.parentElement?.tagName.toLowerCase()}.${element.parentElement?.className}`)
      .slice(0, 5),
  );
}

// Its tests are the run's longest and share nothing but the seed: spread over the workers, each on its own stack.
test.describe.configure({ mode: 'parallel' });

test.beforeEach(async ({ page }) => {
  await page.goto('/login?redirect=%2Flocations');
  await signIn(page, superuser.email, superuser.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/locations');
});

for (const { name, width, height } of SIZES) {
  test(`every admin screen fits the window, reads as staff text and passes axe at ${name} width (${width} px)`, async ({ page }) => {
    // Over twenty screens with an axe run each, the first visits of a fresh stack among them.
    test.setTimeout(420_000);
    await page.setViewportSize({ width, height });
    for (const url of [...ROUTES, ...(await recordRoutes(page))]) {
      const at = `${url} at ${width}`;
      await page.goto(url);
      await settled(page);
      const fit = await overflow(page);
      expect.soft(fit.scrollWidth, `${at}: ${fit.culprits.join(', ')}`).toBeLessThanOrEqual(fit.innerWidth);
      expect.soft(await storageText(page), `${at}: ISO timestamp or "(UTC)" in the text`).toEqual([]);
      expect.soft(await brokenMoney(page), `${at}: money figure over two lines`).toEqual([]);
      const axe = await new AxeBuilder({ page }).analyze();
      expect
        .soft(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`), `${at}: axe`)
        .toEqual([]);
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
