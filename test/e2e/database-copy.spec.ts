import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { CopyCounts, CopySample, DatabaseCopy } from '../../src/contract/database-copy';
import { apiGet, apiHeaders } from './api-session';
import { E2E_PRODUCTION_CONSOLE_URL } from './production-host';
import { expectHeading, signIn } from './sign-in';

const superuser = demoAccount('superuser');
const admin = demoAccount('admin');
/** What the test copies; Payments bring Refund tickets, their notes and Refunds along. */
const CHOSEN = ['Locations', 'Monthly parkers', 'Payments'];
const COPIED = ['locations', 'monthly_parkers', 'transactions', 'refund_tickets', 'refund_ticket_notes', 'refunds'] as const;

async function signedIn(page: Page, account: { email: string; password: string }, url: string, origin = '') {
  await page.goto(`${origin}/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url);
}

async function expectAxeClean(page: Page) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a superuser copies chosen tables to staging, masked, and sees the same rows at both ends', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signedIn(page, superuser, '/database-copy');
  await expectHeading(page, 'Database Copy');
  const tables = page.getByRole('region', { name: 'Tables to copy' });
  await expect(tables.getByTestId('source-rows-transactions')).not.toHaveText('…');
  for (const label of CHOSEN) await tables.getByRole('checkbox', { name: label, exact: true }).check();
  await expect(tables.getByRole('checkbox', { name: 'Refunds', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /Mask personal data/ })).toBeChecked();
  await expectAxeClean(page);

  await page.getByRole('button', { name: 'Copy to staging…' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('textbox', { name: 'Type staging to confirm' }).fill('staging');
  await dialog.getByRole('button', { name: 'Replace and copy' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('copy')).not.toBeNull();
  const copyId = Number(new URL(page.url()).searchParams.get('copy'));

  // A reload shows the same copy again, whether it is still running or done.
  await page.reload();
  await expect(page.getByRole('heading', { name: new RegExp(`^Copy ${copyId}`) })).toBeVisible();
  await expect(page.getByTestId('copy-status')).toHaveText(/^Done: .* rows copied, personal data masked\.$/, { timeout: 120_000 });

  const headers = await apiHeaders(request, superuser);
  const local = await apiGet<CopyCounts>(request, headers, '/database-copy/counts?database=local');
  const staging = await apiGet<CopyCounts>(request, headers, '/database-copy/counts?database=staging');
  for (const table of COPIED) {
    expect(staging.data.counts[table], table).toBe(local.data.counts[table]);
    const rows = local.data.counts[table] ?? 0;
    await expect(page.getByTestId(`end-counts-${table}`)).toHaveText(`${rows.toLocaleString('en-US')} / ${rows.toLocaleString('en-US')}`);
  }
  expect(local.data.counts.transactions).toBeGreaterThan(1000);

  // Masked on the way: the sample the screen shows, and the same through the API.
  await page.getByRole('button', { name: 'Show the first rows of Monthly parkers on staging' }).click();
  const sample = page.getByTestId('copy-sample');
  await expect(sample.locator('tbody tr').first()).toContainText('Parker');
  const parkers = await apiGet<CopySample>(request, headers, '/database-copy/sample?database=staging&table=monthly_parkers');
  const original = await apiGet<CopySample>(request, headers, '/database-copy/sample?database=local&table=monthly_parkers');
  const column = (name: string) => parkers.data.columns.indexOf(name);
  expect(parkers.data.rows.length).toBeGreaterThan(0);
  for (const row of parkers.data.rows) {
    expect(row[column('fname')]).toBe('Parker');
    expect(row[column('lname')]).toMatch(/^\d+$/);
    const phone = row[column('mobilephone')];
    if (phone !== null) expect(phone).toMatch(/^555-01\d\d$/);
  }
  expect(original.data.rows.map((row) => row[column('fname')])).not.toContain('Parker');

  const history = page.getByRole('region', { name: 'Copies' });
  await expect(history.getByRole('row', { name: new RegExp(`Copy ${copyId}`) })).toContainText(superuser.email);
  const record = await apiGet<DatabaseCopy>(request, headers, `/database-copies/${copyId}`);
  expect(record.data).toMatchObject({ status: 'done', masked: true, started_by_email: superuser.email });
  await expectAxeClean(page);
});

test('a non-superuser is denied the page and the API', async ({ page, request }) => {
  await signedIn(page, admin, '/');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Database Copy' })).toHaveCount(0);
  await page.goto('/database-copy');
  await expectHeading(page, 'Access denied');
  const headers = await apiHeaders(request, admin);
  expect((await apiGet(request, headers, '/database-copy/databases')).status).toBe(403);
  expect((await apiGet(request, headers, '/database-copies')).status).toBe(403);
});

test('on the production admin host Database Copy is absent from the sidebar, and the route and API refuse it', async ({
  page,
  request,
}) => {
  // The same console as 127.0.0.1 offers it to the superuser: what follows is the host's doing.
  await signedIn(page, superuser, '/');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Database Copy' })).toBeVisible();

  await signedIn(page, superuser, '/', E2E_PRODUCTION_CONSOLE_URL);
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Locations' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Database Copy' })).toHaveCount(0);
  await page.goto(`${E2E_PRODUCTION_CONSOLE_URL}/database-copy`);
  await expectHeading(page, 'Access denied');

  const headers = { ...(await apiHeaders(request, superuser)), Origin: E2E_PRODUCTION_CONSOLE_URL };
  const refused = await apiGet(request, headers, '/database-copy/databases');
  expect(refused.status).toBe(403);
  expect(refused.message).toContain('production admin console');
});
