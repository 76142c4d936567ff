import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { Paged } from '../../src/contract/lists';
import type { TransactionDetail, TransactionRow } from '../../src/contract/transactions';
import { apiGet, apiHeaders, apiPost, SECTION_USERS, seedSectionUsers } from './api-session';
import { expectHeading, signIn } from './sign-in';
import { E2E_API_URL } from './stack';

const admin = demoAccount('admin');
const dollars = (cents: number) => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

test.beforeAll(async ({ playwright }) => {
  const request = await playwright.request.newContext();
  await seedSectionUsers(request);
  await request.dispose();
});

async function signInAsAdmin(page: Page) {
  await page.goto('/login');
  await signIn(page, admin.email, admin.password);
  // Signed in once the console leaves /login (the login page has its own h1).
  await expect(page).not.toHaveURL(/\/login/);
}

/** A seeded payment nobody has refunded yet, at least `minCents`, found through the API (ids are never hard-coded). */
async function unrefundedPayment(page: Page, headers: Record<string, string>, skip: number, minCents = 400) {
  const found = await apiGet<Paged<TransactionRow>>(page.request, headers, '/transactions?status=paid&pageSize=100&sort=transaction_id');
  const payments = found.data.rows.filter((row) => row.amount_cents >= minCents);
  const payment = payments[skip];
  if (!payment) throw new Error(`no unrefunded seeded payment of ${dollars(minCents)} or more`);
  return payment;
}

test('a $12 ticket refunds $10, then at most the $2 it still asks for, then nothing; more is stopped before the dialog', async ({ page }) => {
  const headers = await apiHeaders(page.request, admin);
  // Above $12.00, so that the payment has more left than the ticket asks for (issue 34: $12 on $30.96).
  const payment = await unrefundedPayment(page, headers, 0, 1300);
  await signInAsAdmin(page);

  await page.goto(`/transactions/${payment.transaction_id}`);
  await expectHeading(page, `Transaction ${payment.transaction_id}`);
  const ticketForm = page.getByRole('form', { name: 'Open a refund ticket' });
  // More than the payment is stopped at the field; nothing is opened.
  await ticketForm.getByLabel('Amount', { exact: true }).fill(dollars(payment.amount_cents + 1).slice(1));
  await ticketForm.getByLabel('Reason').fill('Charged for a full day, left after an hour');
  await ticketForm.getByRole('button', { name: 'Open a refund ticket' }).click();
  await expect(ticketForm).toContainText(`The amount is more than what is left to refund: at most ${dollars(payment.amount_cents)}.`);
  await ticketForm.getByLabel('Amount', { exact: true }).fill('12.00');
  await ticketForm.getByRole('button', { name: 'Open a refund ticket' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Ticket \d+$/ })).toBeVisible();
  const ticketUrl = page.url();
  expect(ticketUrl).toMatch(/\/refund-portal\/ticket-info\/\d+$/);

  await page.getByLabel('Reason for the decision').fill('Exit camera confirms one hour');
  await page.getByRole('button', { name: 'Save decision' }).click();
  await expect(page.locator('.details-list')).toContainText('StatusApproved');

  // Refund $10.00: the button follows the amount; the dialog names it and the transaction; a double click refunds once.
  const refundForm = page.getByRole('form', { name: 'Refund' });
  const amount = refundForm.getByLabel('Amount', { exact: true });
  await expect(amount).toHaveValue('12.00');
  await amount.fill('10.00');
  await refundForm.getByLabel('Reason').fill('Partial refund agreed on the phone');
  await refundForm.getByRole('button', { name: 'Refund $10.00…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Refund this payment?' });
  await expect(dialog).toContainText(`Refund $10.00 of transaction ${payment.transaction_id}`);
  await dialog.getByRole('button', { name: 'Refund $10.00' }).dblclick();
  await expect(dialog).toBeHidden();
  const detail = await apiGet<TransactionDetail>(page.request, headers, `/transactions/${payment.transaction_id}`);
  expect(detail.data.refunds.map((refund) => refund.amount_cents)).toEqual([1000]);

  // The ticket stays approved and offers at most the $2.00 it still asks for; more is stopped at the field.
  await expect(page.locator('.details-list')).toContainText('StatusApproved');
  await expect(amount).toHaveValue('2.00');
  await expect(refundForm).toContainText('The ticket still asks for $2.00 of the $12.00 it asked for.');
  await amount.fill('2.01');
  await refundForm.getByLabel('Reason').fill('Rest of it');
  await refundForm.getByRole('button', { name: 'Refund $2.01…' }).click();
  await expect(refundForm).toContainText('The amount is more than the ticket still asks for: at most $2.00.');
  await expect(dialog).toBeHidden();

  // The $2.00 left refunds it in full: Refunded, and no refund form any more.
  await amount.fill('2.00');
  await refundForm.getByRole('button', { name: 'Refund $2.00…' }).click();
  await dialog.getByRole('button', { name: 'Refund $2.00' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.details-list')).toContainText('StatusRefunded');
  await expect(page.getByText('This ticket is refunded in full ($12.00); it takes no more refunds.')).toBeVisible();
  await expect(refundForm).toHaveCount(0);
  const after = await apiGet<TransactionDetail>(page.request, headers, `/transactions/${payment.transaction_id}`);
  expect(after.data.refunded_cents).toBe(1200);

  // The transaction shows the refunds and what is left.
  await page.getByRole('link', { name: `Transaction ${payment.transaction_id}` }).click();
  await expectHeading(page, `Transaction ${payment.transaction_id}`);
  await expect(page.locator('section.refunds')).toContainText('Partial refund agreed on the phone');
  await expect(page.locator('.details-list')).toContainText(`Refunded${dollars(1200)}`);
  await expect(page.getByText(`at most ${dollars(payment.amount_cents - 1200)} is left to refund`)).toBeVisible();

  // The ticket is listed, with its status, at /refund-portal.
  await page.goto('/refund-portal?status=refunded');
  await expectHeading(page, 'Refund Tickets');
  const ticketId = ticketUrl.split('/').at(-1)!;
  await expect(page.getByRole('link', { name: `Ticket ${ticketId}` })).toBeVisible();
  // The filters live in the URL: a reload shows the same list.
  const filters = page.getByRole('search', { name: 'Filter tickets' });
  await filters.getByLabel('Location').selectOption({ label: payment.location_name });
  await expect(page).toHaveURL(new RegExp(`locationId=${payment.location_id}`));
  await page.reload();
  await expect(filters.getByLabel('Status')).toHaveValue('refunded');
  await expect(filters.getByLabel('Location')).toHaveValue(String(payment.location_id));
  await expect(page.getByRole('link', { name: `Ticket ${ticketId}` })).toBeVisible();
});

test('the API refuses forged requests: a view-only user refunding, and a promo-code viewer editing', async ({ page }) => {
  const adminHeaders = await apiHeaders(page.request, admin);
  const payment = await unrefundedPayment(page, adminHeaders, 1);
  // finance@example.com holds the refund portal for viewing only.
  const finance = await apiHeaders(page.request, demoAccount('finance'));
  const refused = await page.request.post(`${E2E_API_URL}/transactions/${payment.transaction_id}/refunds`, {
    headers: { ...finance, 'Idempotency-Key': 'forged-1' },
    data: { amount_cents: 100, reason: 'forged' },
  });
  expect(refused.status()).toBe(403);
  // promo@example.com may view and add promo codes at Pike Place (3), not edit them.
  const promo = await apiHeaders(page.request, demoAccount('promo'));
  const created = await apiPost<{ promo_code_id: number; version: number }>(page.request, promo, '/promo-codes', {
    code: `E2E${Date.now() % 100000}`,
    discount_type: 'percent',
    discount_value: 10,
    multi_use: true,
    total_cap: null,
    per_plate_cap: null,
    valid_from: '2026-01-01T00:00:00Z',
    valid_to: '2026-12-01T00:00:00Z',
    location_ids: [3],
    active: true,
  });
  expect(created.status, created.message).toBe(200);
  const edit = await apiPost(page.request, promo, `/promo-codes/${created.data.promo_code_id}/status`, { active: false, version: created.data.version });
  expect(edit.status).toBe(403);
});

for (const [name, width, height] of [
  ['360 px', 360, 740],
  ['desktop', 1280, 900],
] as const) {
  test(`the refund portal and promo code screens pass axe at ${name} width`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const headers = await apiHeaders(page.request, admin);
    const payment = await unrefundedPayment(page, headers, 2 + (width > 400 ? 1 : 0));
    const ticket = await apiPost<{ ticket_id: number }>(page.request, headers, '/refund-tickets', {
      transaction_id: payment.transaction_id,
      amount_cents: 100,
      reason: 'Axe check',
    });
    expect(ticket.status, ticket.message).toBe(200);
    await signInAsAdmin(page);
    for (const [url, heading] of [
      ['/refund-portal', 'Refund Tickets'],
      [`/refund-portal/ticket-info/${ticket.data.ticket_id}`, `Ticket ${ticket.data.ticket_id}`],
      [`/transactions/${payment.transaction_id}`, `Transaction ${payment.transaction_id}`],
      ['/promo-codes', 'Promo Codes'],
      ['/promo-codes/add', 'Add promo code'],
    ] as const) {
      await page.goto(url);
      await expectHeading(page, heading);
      expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${url} fits`).toBe(true);
    }
  });
}

test('a promo code is added, listed, edited and deactivated', async ({ page }) => {
  const code = `Spring${Date.now() % 1_000_000}`;
  await signInAsAdmin(page);
  await page.goto('/promo-codes');
  await expectHeading(page, 'Promo Codes');
  await page.getByRole('link', { name: 'Add promo code' }).click();
  await expectHeading(page, 'Add promo code');
  const form = page.getByRole('form', { name: 'Promo code' });
  await form.getByLabel('Code', { exact: true }).fill(code);
  await form.getByLabel('Percent off', { exact: true }).fill('15');
  await form.getByLabel('Total cap').fill('100');
  await form.getByLabel('Union Station Garage').check();
  await form.getByRole('button', { name: 'Add promo code' }).click();
  await expectHeading(page, 'Promo Codes');

  await page.getByLabel('Code', { exact: true }).fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Search' }).click();
  const table = page.getByRole('table', { name: 'Promo codes at your locations' });
  await expect(table).toContainText(code);
  await expect(table).toContainText('15 %');
  await table.getByRole('link', { name: `Edit ${code}` }).click();
  await expectHeading(page, `Promo code ${code}`);
  await page.getByRole('form', { name: 'Promo code' }).getByLabel('Percent off', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('region', { name: 'History' })).toContainText(/Edited by .*Discount: 15 %\s*→\s*changed to 20 %/);

  await page.getByRole('button', { name: 'Deactivate' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Deactivate ${code}?` });
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByText('Deactivated.')).toBeVisible();
  await page.goto(`/promo-codes?q=${code}&state=inactive`);
  await expect(page.getByRole('table', { name: 'Promo codes at your locations' })).toContainText('20 %');
});

test('a promo-code viewer sees no add or edit, and the API refuses a forged edit', async ({ page }) => {
  const adminHeaders = await apiHeaders(page.request, admin);
  const code = `View${Date.now() % 1_000_000}`;
  const created = await apiPost(page.request, adminHeaders, '/promo-codes', {
    code,
    discount_type: 'percent',
    discount_value: 5,
    multi_use: true,
    total_cap: null,
    per_plate_cap: null,
    valid_from: '2026-01-01T00:00:00Z',
    valid_to: '2026-12-01T00:00:00Z',
    location_ids: [1],
    active: true,
  });
  expect(created.status, created.message).toBe(200);
  const viewer = SECTION_USERS.promoViewer;
  await page.goto('/login');
  await signIn(page, viewer.email, viewer.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`/promo-codes?q=${code}`);
  await expectHeading(page, 'Promo Codes');
  await expect(page.getByRole('table', { name: 'Promo codes at your locations' })).toContainText(code);
  await expect(page.getByRole('link', { name: 'Add promo code' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: `Edit ${code}` })).toHaveCount(0);
  const headers = await apiHeaders(page.request, viewer);
  const found = await apiGet<Paged<{ promo_code_id: number; version: number }>>(page.request, headers, `/promo-codes?q=${code}`);
  const forged = await apiPost(page.request, headers, `/promo-codes/${found.data.rows[0]!.promo_code_id}/status`, {
    active: true,
    version: found.data.rows[0]!.version,
  });
  expect(forged.status).toBe(403);
});
