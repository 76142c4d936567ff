import path from 'node:path';
import { expect, test, type Page } from '../e2e/test';
import { demoAccount, type DemoPersona } from '../../server/db/seed/demo-accounts';
import { fetchRecords } from '../e2e/enforcement-data';
import { signIn } from '../e2e/sign-in';

/**
 * The user guide's screenshots (docs/guide/*.md link them by these names). Each test signs in as the demo account a
 * clerk of that job would use and photographs its screens; `npm run docs:screenshots` rewrites every file.
 */
const IMAGES = path.resolve(import.meta.dirname, '../../docs/guide/images');

/** Waits until the screen has its heading and no loading placeholder, so a picture never shows a skeleton. */
async function settled(page: Page) {
  await expect(page.locator('h1').first()).toBeVisible();
  await expect(page.locator('.table-skeleton, [aria-busy="true"]')).toHaveCount(0, { timeout: 30_000 });
  // Charts and fonts finish painting after the data arrives.
  await page.waitForTimeout(600);
}

/**
 * Writes docs/guide/images/<name>.png. `whole` keeps the sidebar (where the section is found); otherwise only the
 * page's main area, cut at the window's height, keeps the files small.
 */
async function shoot(page: Page, name: string, options: { whole?: boolean } = {}) {
  await settled(page);
  await page.mouse.move(0, 799);
  const file = path.join(IMAGES, `${name}.png`);
  if (options.whole) {
    await page.screenshot({ path: file });
    return;
  }
  const box = await page.locator('#main').boundingBox();
  if (!box) throw new Error(`no main area on ${page.url()}`);
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.screenshot({
    path: file,
    clip: { x: box.x, y: box.y, width: box.width, height: Math.min(box.height, viewport.height - box.y) },
  });
}

/** `YYYY-MM-DDTHH:mm` of midnight `days` from today on this machine's clock, as a datetime-local field takes it. */
function localMinute(days: number): string {
  const day = new Date();
  day.setDate(day.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}T00:00`;
}

async function signInAs(page: Page, persona: DemoPersona) {
  const account = demoAccount(persona);
  await page.goto('/login');
  await signIn(page, account.email, account.password);
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });
}

test('sign-in page', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('E-mail')).toBeVisible();
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(IMAGES, 'sign-in.png') });
});

test('finance: dashboards and the refund portal', async ({ page }) => {
  await signInAs(page, 'finance');
  await expect(page.getByText('Live', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await shoot(page, 'dashboards-real-time', { whole: true });
  await page.goto('/settled-dashboard');
  await shoot(page, 'dashboards-settled');
  await page.goto('/refund-portal/transactions');
  await shoot(page, 'refund-portal-transactions');
  await page.locator('#main table tbody a').first().click();
  await expect(page).toHaveURL(/\/transactions\/\d+/);
  await shoot(page, 'refund-portal-transaction');
});

test('officer: the enforcement search', async ({ page, request }) => {
  const officer = demoAccount('officer');
  const now = Date.now() / 1000;
  const records = await fetchRecords(request, officer, [1, 2]);
  const paid = records.find((r) => r.type === 'valid' && (r.expiryUnix ?? 0) > now + 3600 && r.refunded === 0);
  await signInAs(page, 'officer');
  const line = page.getByRole('status').filter({ hasText: /^(Online|Offline) · / });
  await expect(line).toContainText('data synced', { timeout: 60_000 });
  await expect(line).not.toContainText('Downloading', { timeout: 60_000 });
  await shoot(page, 'enforcement-search', { whole: true });
  if (paid) {
    await page.getByLabel('License plate').fill(paid.plate);
    await expect(page.getByText('PAID', { exact: true }).first()).toBeVisible();
    await shoot(page, 'enforcement-paid', { whole: true });
  }
});

test('admin: locations, rates, promo codes, users and roles', async ({ page }) => {
  await signInAs(page, 'admin');
  await shoot(page, 'home-admin', { whole: true });
  await page.goto('/locations');
  await shoot(page, 'locations-list');
  await page.goto('/edit-location/1');
  await shoot(page, 'locations-edit');
  await page.goto('/add-location');
  await shoot(page, 'locations-add');
  await page.goto('/rate-selection?locationId=1');
  await shoot(page, 'rates-configure');
  await page.goto('/rate-config?locationId=1');
  await shoot(page, 'rates-configuration');
  await page.goto('/rates');
  await shoot(page, 'rates-changes');
  await page.goto('/rates/changes/edit/1');
  await shoot(page, 'rates-schedule');
  // A code to show, added as a clerk would: $5 off at Union Station Garage for the next 30 days.
  await page.goto('/promo-codes/add');
  await page.getByLabel('Code', { exact: true }).fill(`WELCOME${Date.now().toString(36).slice(-4).toUpperCase()}`);
  await page.getByLabel('Discount type').selectOption({ label: 'Amount off' });
  await page.getByLabel('Amount off', { exact: true }).fill('5');
  await page.getByRole('checkbox', { name: 'Union Station Garage' }).check();
  await page.getByLabel('Valid from').fill(localMinute(0));
  await page.getByLabel('Valid to').fill(localMinute(30));
  await shoot(page, 'promo-codes-add');
  await page.getByRole('button', { name: 'Add promo code' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/promo-codes');
  await shoot(page, 'promo-codes-list');
  // A ticket to show, opened on a paid payment as a clerk would (the seed has none; the stack's database is throwaway).
  await page.goto('/refund-portal/transactions?status=paid');
  await settled(page);
  await page.locator('#main table tbody a').first().click();
  const ticketForm = page.getByRole('form', { name: 'Open a refund ticket' });
  await ticketForm.getByLabel('Amount', { exact: true }).fill('1.00');
  await ticketForm.getByLabel('Reason').fill('Charged twice at the exit');
  await ticketForm.screenshot({ path: path.join(IMAGES, 'refund-portal-open-ticket.png') });
  await ticketForm.getByRole('button', { name: 'Open a refund ticket' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Ticket \d+$/ })).toBeVisible();
  await page.getByLabel('Reason for the decision').fill('The exit camera shows one visit');
  await shoot(page, 'refund-portal-ticket');
  await page.goto('/refund-portal');
  await shoot(page, 'refund-portal-tickets');
  await page.goto('/user-config');
  await shoot(page, 'users-list');
  await page.goto('/user-config?invite=1');
  await shoot(page, 'users-invite');
  await page.goto('/role-Config');
  await shoot(page, 'roles-list');
  await page.goto('/role-Config?new=1');
  await shoot(page, 'roles-edit');
});

test('superuser: enforcement lite, mailing and database copy', async ({ page }) => {
  await signInAs(page, 'superuser');
  // A lite location and its officer to show, added through the forms (sent again if the route reloaded under the
  // typing while the session was confirmed, as enforcement-lite.spec.ts does).
  const run = Date.now().toString(36).slice(-5);
  await page.goto('/enforcement-lite/add-location');
  await expect(async () => {
    await page.getByLabel('Name', { exact: true }).fill(`Riverside Lot ${run}`);
    await page.getByLabel('Operator', { exact: true }).fill('Riverside Parking Co.');
    await page.getByLabel('Address', { exact: true }).fill('5 Corner St, Austin, TX 78701');
    await page.getByLabel('Time zone', { exact: true }).selectOption('America/Chicago');
    await page.getByLabel('Spaces', { exact: true }).fill('40');
    await shoot(page, 'enforcement-lite-add-location');
    await page.getByRole('button', { name: 'Add lite location' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Enforcement Lite: Edit Location' })).toBeVisible({ timeout: 8_000 });
  }).toPass({ timeout: 60_000 });
  await page.goto('/enforcement-lite/add-user');
  await page.getByLabel('E-mail', { exact: true }).fill(`riverside-${run}@example.com`);
  await page.getByLabel('Name', { exact: true }).fill('Riley Rivers');
  await page.getByLabel(`Riverside Lot ${run}`, { exact: true }).check();
  await page.getByRole('button', { name: 'Add officer' }).click();
  await expect(page.getByLabel('Set-password link')).toBeVisible();
  await shoot(page, 'enforcement-lite-officer-added');
  await page.goto('/enforcement-lite');
  await shoot(page, 'enforcement-lite-locations');
  await page.goto('/enforcement-lite?show=officers');
  await shoot(page, 'enforcement-lite-officers');
  await page.goto('/mailing');
  await shoot(page, 'mailing');
  await page.goto('/database-copy');
  // Both ends' row counts, not the "…" shown while the target is counted.
  await expect(page.locator('#main td').filter({ hasText: /^…$/ })).toHaveCount(0, { timeout: 30_000 });
  await shoot(page, 'database-copy');
});

test('promotions clerk: one location, view and add', async ({ page }) => {
  await signInAs(page, 'promo');
  await expect(page).toHaveURL(/\/promo-codes/);
  await shoot(page, 'promo-codes-clerk', { whole: true });
});
