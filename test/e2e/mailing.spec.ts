import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { Mailing, MailingOptions, MailingPreview } from '../../src/contract/mailing';
import { apiGet, apiHeaders, apiPost } from './api-session';
import { E2E_MAILDEV_URL } from './mail-catcher';
import { E2E_API_URL } from './stack';
import { expectHeading, signIn } from './sign-in';

const superuser = demoAccount('superuser');
const admin = demoAccount('admin');

interface CaughtMail {
  subject: string;
  to: { address: string; name?: string }[];
  html: string;
  text: string;
  headers: Record<string, string>;
}

async function signedIn(page: Page, account: { email: string; password: string }, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url);
}

async function expectAxeClean(page: Page) {
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    // The samples' frames are sandboxed without scripts, so axe cannot run inside them (it would wait for ever);
    // their content is the sanitised mail, checked below, and the frames themselves carry titles.
    const results = await new AxeBuilder({ page }).exclude('iframe.mailing-frame').analyze();
    expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function caught(request: APIRequestContext): Promise<CaughtMail[]> {
  return (await (await request.get(`${E2E_MAILDEV_URL}/email`)).json()) as CaughtMail[];
}

/**
 * A segment of exactly 500 Active parkers: the smallest run of locations (in the order offered) with at least 500
 * mailable addresses (the seed spreads parkers over six garages, so that run holds a few more), the rest of it then
 * opted out as unsubscribing would (the test stack's POST /dev/mailing-opt-outs, DEV_SEED=1 only).
 */
async function segmentOf500(request: APIRequestContext, headers: Record<string, string>) {
  const options = (await apiGet<MailingOptions>(request, headers, '/mailings/options')).data;
  const chosen: MailingOptions['locations'] = [];
  const segment = () => ({ kind: 'parkers', locationIds: chosen.map((l) => l.location_id), parkerStatus: 'Active' });
  const preview = async () =>
    (await apiPost<MailingPreview>(request, headers, '/mailings/preview', { subject: 'x', body: 'x', segment: segment() })).data;
  for (const location of options.locations) {
    chosen.push(location);
    const found = await preview();
    if (found.recipientCount < 500) continue;
    const trimmed = await request.post(`${E2E_API_URL}/dev/mailing-opt-outs`, { data: { segment: segment(), keep: 500 } });
    expect(trimmed.status()).toBe(200);
    const sized = await preview();
    expect(sized).toMatchObject({ recipientCount: 500, optedOutCount: found.optedOutCount + (found.recipientCount - 500) });
    return { locations: chosen, count: sized.recipientCount };
  }
  throw new Error('the seed has fewer than 500 mailable Active parkers');
}

test('a superuser sends a mailing to a segment of 500 parkers: each gets it once, personalised', async ({ page, request }) => {
  test.setTimeout(180_000);
  await request.delete(`${E2E_MAILDEV_URL}/email/all`);
  const headers = await apiHeaders(request, superuser);
  const segment = await segmentOf500(request, headers);
  expect(segment.count).toBe(500);

  await signedIn(page, superuser, '/mailing');
  await expectHeading(page, 'Mailing');
  await page.getByRole('textbox', { name: 'Subject' }).fill('Garage news for {{first_name}}');
  await page.getByRole('textbox', { name: 'Message (Markdown)' }).fill(
    'Dear **{{first_name}} {{last_name}}**,\n\nLevel 2 reopens Monday. <script>alert(1)</script> [rates](javascript:alert(1))',
  );
  for (const location of segment.locations) await page.getByRole('checkbox', { name: location.name, exact: true }).check();
  await page.getByLabel('Parker status').selectOption('Active');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'recipients' })).toContainText(`${segment.count.toLocaleString('en-US')} recipients`);
  // The sample renders under the production CSP in its sandboxed frame, without the script or the link.
  await expect(page.locator('iframe.mailing-frame').first()).toHaveAttribute('title', /^Message for /);
  await expect(page.locator('iframe.mailing-frame').first()).toHaveAttribute('sandbox', '');
  const frame = page.frameLocator('iframe.mailing-frame').first();
  await expect(frame.locator('strong')).toHaveText(/^\S+ \S+$/);
  await expect(frame.locator('script')).toHaveCount(0);
  await expect(frame.locator('a')).toHaveCount(0);
  await expectAxeClean(page);

  await page.getByRole('button', { name: 'Send…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('mailing')).not.toBeNull();
  const mailingId = Number(new URL(page.url()).searchParams.get('mailing'));

  // Progress survives a reload: the counts are the server's.
  await page.reload();
  await expect(page.getByRole('heading', { name: `Mailing ${mailingId}` })).toBeVisible();
  await expect(page.getByTestId('mailing-state')).toHaveText('Done', { timeout: 120_000 });
  await expect(page.getByTestId('mailing-sent')).toHaveText(segment.count.toLocaleString('en-US'));
  await expect(page.getByTestId('mailing-left')).toHaveText('0');

  const mails = await caught(request);
  const addresses = mails.map((mail) => mail.to[0]!.address.toLowerCase());
  expect(mails).toHaveLength(500);
  expect(new Set(addresses).size).toBe(segment.count);
  for (const mail of mails) {
    // Seeded addresses are first.last.parkerid@example.com: the greeting names that parker.
    const first = /^Garage news for (.+)$/.exec(mail.subject)?.[1] ?? '';
    expect(mail.to[0]!.address.toLowerCase().startsWith(`${first.toLowerCase().replace(/[^a-z]/g, '')}.`)).toBe(true);
    // Names are text in the HTML part: D'Andre arrives as D&#39;Andre.
    const escaped = first.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
    expect(mail.html).toContain(`<strong>${escaped} `);
    expect(mail.text).toContain(`Dear **${first} `);
    // The hostile input is there as escaped text only: no script element, no javascript: link.
    expect(mail.html).not.toMatch(/<script|href="javascript:/i);
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.headers['message-id']).toMatch(new RegExp(`^<mailing-${mailingId}\\.\\d+@`));
  }
  const record = await apiGet<Mailing>(request, headers, `/mailings/${mailingId}`);
  expect(record.data).toMatchObject({ state: 'done', sent: segment.count, failed: 0, left: 0 });
  await expect(page.getByRole('region', { name: 'Mailings' }).getByRole('row', { name: /Garage news/ }).first()).toContainText(
    segment.count.toLocaleString('en-US'),
  );
  await expectAxeClean(page);
});

test('a non-superuser is denied the page and the API', async ({ page, request }) => {
  await signedIn(page, admin, '/');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Mailing' })).toHaveCount(0);
  await page.goto('/mailing');
  await expectHeading(page, 'Access denied');
  const headers = await apiHeaders(request, admin);
  expect((await apiGet(request, headers, '/mailings')).status).toBe(403);
  expect((await apiGet(request, headers, '/mailings/options')).status).toBe(403);
  const refused = await apiPost(request, headers, '/mailings', {
    subject: 'x',
    body: 'x',
    segment: { kind: 'parkers', locationIds: [1], parkerStatus: 'Active' },
  });
  expect(refused.status).toBe(403);
});
