import AxeBuilder from '@axe-core/playwright';
import { deflateSync } from 'node:zlib';
import { expect, test, type BrowserContext, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { expectHeading, signIn } from './sign-in';

/**
 * Issue 38, end to end: offline, the officer writes a citation with a photo for a plate nobody paid for, reloads the
 * page with no network, and goes online; the citation and its photo arrive once and show in the office's Citations;
 * voiding it shows in its History; someone without enforcement at that location never sees it.
 */
const PHONE = { width: 360, height: 740 };

/** A real PNG (8 × 8, one colour), so that the phone's compression has something to decode. */
function pngBytes(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array(8).fill([200, 30, 30]).flat()])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** As offline.spec.ts: Chromium keeps navigator.onLine true in a page loaded offline; this getter says the truth. */
const OFFLINE_MARK = 'e2e-offline';
async function goOffline(page: Page, context: BrowserContext) {
  await page.addInitScript((mark) => {
    const native = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!.get!;
    Object.defineProperty(Navigator.prototype, 'onLine', {
      configurable: true,
      get(this: Navigator) {
        return sessionStorage.getItem(mark) === null && (native.call(this) as boolean);
      },
    });
  }, OFFLINE_MARK);
  await context.setOffline(true);
  await page.evaluate((mark) => sessionStorage.setItem(mark, '1'), OFFLINE_MARK);
}
async function goOnline(page: Page, context: BrowserContext) {
  await page.evaluate((mark) => sessionStorage.removeItem(mark), OFFLINE_MARK);
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}

const statusLine = (page: Page) => page.getByRole('status').filter({ hasText: /^(Online|Offline) · / });

test('a citation written offline arrives once with its photo; the office voids it; others never see it', async ({ page, context, browser }) => {
  test.setTimeout(180_000);
  const plate = `E2E${Date.now().toString(36).toUpperCase().slice(-6)}`;
  const officer = demoAccount('officer');
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await signIn(page, officer.email, officer.password);
  await expectHeading(page, 'Enforcement');
  await expect(statusLine(page)).toContainText('data synced just now', { timeout: 45_000 });
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // Offline: a plate nobody paid for.
  await goOffline(page, context);
  await expect(statusLine(page)).toContainText('Offline');
  await page.getByLabel('License plate').fill(plate);
  await expect(page.locator('.verdict-headline')).toHaveText('NO RECORD');
  await page.getByRole('button', { name: 'Write citation' }).click();
  const form = page.getByRole('region', { name: 'Write citation' });
  await expect(form.getByRole('textbox', { name: 'License plate' })).toHaveValue(plate);
  await form.getByRole('textbox', { name: 'Notes' }).fill('Grey hatchback by the exit');
  await form.getByLabel(/^Photos/).setInputFiles({ name: 'plate.png', mimeType: 'image/png', buffer: pngBytes() });
  await expect(form.getByText(/1 photo ready/)).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('.citation-form').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  await form.getByRole('button', { name: 'Save citation' }).click();
  await expect(form).toBeHidden();
  await expect(statusLine(page)).toContainText('1 citation waiting to upload');

  // A reload with no network: the citation is still there, waiting.
  await page.reload();
  await expectHeading(page, 'Enforcement');
  await expect(statusLine(page)).toContainText('1 citation waiting to upload', { timeout: 20_000 });

  // Online: it uploads by itself.
  await goOnline(page, context);
  await expect(statusLine(page)).not.toContainText('waiting to upload', { timeout: 45_000 });
  await page.getByRole('button', { name: 'My citations today (1)' }).click();
  await expect(page.getByRole('region', { name: 'My citations today' }).getByRole('listitem')).toContainText(`${plate} · No payment · $50.00 · Uploaded`);

  // The office (the administrator: enforcement at every location).
  const office = await browser.newContext();
  const desk = await office.newPage();
  const admin = demoAccount('admin');
  await desk.goto('/login');
  await signIn(desk, admin.email, admin.password);
  await expectHeading(desk, 'Real Time Dashboard');
  await desk.goto(`/citations?q=${plate}`);
  await expectHeading(desk, 'Citations');
  const rows = desk.getByRole('row', { name: new RegExp(plate) });
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: `Citation for ${plate}` }).click();
  await expectHeading(desk, `Citation ${plate}`);
  await expect(desk.getByRole('img', { name: `Photo 1 of ${plate}` })).toBeVisible();
  await desk.getByRole('button', { name: 'Void' }).click();
  const dialog = desk.getByRole('alertdialog');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Permit shown at the office');
  await dialog.getByRole('button', { name: 'Void citation' }).click();
  await expect(dialog).toBeHidden();
  await expect(desk.getByRole('region', { name: 'History' })).toContainText('Permit shown at the office');

  // Finance has no enforcement: the list is not theirs, nor the citation.
  const other = await browser.newContext();
  const outsider = await other.newPage();
  const finance = demoAccount('finance');
  await outsider.goto('/login');
  await signIn(outsider, finance.email, finance.password);
  await expectHeading(outsider, 'Real Time Dashboard');
  await outsider.goto(`/citations?q=${plate}`);
  await expect(outsider.getByText(plate)).toHaveCount(0);
  await expect(outsider.getByRole('heading', { name: /Access denied|not allowed/i })).toBeVisible();
  await office.close();
  await other.close();
});
