import AxeBuilder from '@axe-core/playwright';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { expectedHeadlineIn, fetchRecords, type KnownRecord } from './enforcement-data';
import { expectHeading, signInOfficer } from './sign-in';
import { E2E_CONSOLE_URL } from './stack';

/**
 * Scan (issue 37), end to end, with Chromium's fake camera playing a video the test makes from a rendered plate:
 * the officer taps Scan, the seeded plate is read and its verdict shown; offline (service worker, network cut) Scan
 * still reads; with the camera denied Scan explains and the field still works.
 */
const PHONE = { width: 360, height: 740 };
const FRAME = { width: 640, height: 480 };

let records: KnownRecord[] = [];
test.beforeAll(async ({ request }) => {
  records = await fetchRecords(request, demoAccount('officer'), [1, 2]);
});

/**
 * A seeded plate of the officer's that reads PAID for the next half hour and has none of the look-alike characters
 * (O/0, I/1, S/5, B/8, Z/2, G/6): the verdict then depends on the read alone, and bench:plates measures how well
 * look-alikes are read.
 */
function paidPlate(): string {
  const later = Date.now() / 1000 + 1800;
  const plates = [...new Set(records.filter((r) => (r.expiryUnix ?? 0) > later).map((r) => r.plate.toUpperCase()))];
  const plate = plates.find((p) => /^[AC-FHJ-NPQRT-Y3479]{6,7}$/.test(p) && expectedHeadlineIn(records, p) === 'PAID');
  expect(plate, 'a seeded plate that reads PAID').toBeDefined();
  return plate!;
}

/**
 * The plate drawn as a camera would see it: dark characters on a light plate with a border and the state's name,
 * filling the guide box; an empty text draws the street with no plate.
 */
async function renderPlate(page: Page, text: string): Promise<Buffer> {
  const base64 = await page.evaluate(
    ({ text, width, height }) => {
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#5b6470';
      context.fillRect(0, 0, width, height);
      if (text !== '') {
        context.fillStyle = '#f4f4ef';
        context.fillRect(80, 140, 480, 200);
        context.strokeStyle = '#1e3a8a';
        context.lineWidth = 6;
        context.strokeRect(86, 146, 468, 188);
        context.fillStyle = '#1e3a8a';
        context.font = 'bold 22px sans-serif';
        context.textAlign = 'center';
        context.fillText('CALIFORNIA', width / 2, 178);
        context.fillStyle = '#111';
        context.font = 'bold 104px "DejaVu Sans", sans-serif';
        context.fillText(text, width / 2, 300, 440);
      }
      const { data } = context.getImageData(0, 0, width, height);
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return btoa(binary);
    },
    { text, ...FRAME },
  );
  return Buffer.from(base64, 'base64');
}

/** RGBA pixels as a YUV4MPEG2 file (4:2:0) of a few identical frames, the format Chromium's fake camera plays. */
function y4m(rgba: Buffer, width: number, height: number, frames = 5): Buffer {
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc(u.length);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const p = (row * width + col) * 4;
      const [r, g, b] = [rgba[p]!, rgba[p + 1]!, rgba[p + 2]!];
      y[row * width + col] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const c = (row / 2) * (width / 2) + col / 2;
        u[c] = Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        v[c] = Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), ...Array(frames).fill(frame)]);
}

/** The full browser: the headless shell the other specs use has no camera at all (getUserMedia: NotSupportedError). */
async function cameraBrowser(page: Page, plate: string): Promise<Browser> {
  const video = path.join(await mkdtemp(path.join(os.tmpdir(), 'lpa-scan-')), 'camera.y4m');
  await writeFile(video, y4m(await renderPlate(page, plate), FRAME.width, FRAME.height));
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`],
  });
}

const plateField = (page: Page) => page.getByLabel('License plate');
const scanButton = (page: Page) => page.getByRole('button', { name: 'Scan a plate with the camera' });

test('Scan reads the plate in front of the camera, online and offline, and the verdict follows', async ({ page }) => {
  test.setTimeout(180_000);
  const plate = paidPlate();
  await page.goto('/login');
  const browser = await cameraBrowser(page, plate);
  try {
    const context = await browser.newContext({ baseURL: E2E_CONSOLE_URL, viewport: PHONE, permissions: ['camera'] });
    const phone = await context.newPage();
    await signInOfficer(phone);
    // The service worker is in control once it has precached the app and the reader's files.
    await phone.evaluate(() => navigator.serviceWorker.ready);

    await scanButton(phone).click();
    await expect(plateField(phone)).toHaveValue(plate, { timeout: 60_000 });
    await expect(phone.getByRole('dialog', { name: 'Scan a plate' })).toBeHidden();
    await expect(plateField(phone)).toBeFocused();
    await expect(phone.locator('.verdict-headline')).toHaveText('PAID');
    await expect(phone.getByText(/^Read by the camera\./)).toBeVisible();

    // Offline: the page, the reader's worker, its core and its model all come from the service worker's cache.
    await context.setOffline(true);
    await phone.reload();
    await expectHeading(phone, 'Enforcement');
    await expect(plateField(phone)).toHaveValue('');
    await scanButton(phone).click();
    await expect(plateField(phone)).toHaveValue(plate, { timeout: 60_000 });
    await expect(phone.locator('.verdict-headline')).toHaveText('PAID');
    await context.close();
  } finally {
    await browser.close();
  }
});

test('with no plate in view Scan keeps reading, and one tap returns to typing; a denied camera is explained', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/login');
  const browser = await cameraBrowser(page, '');
  try {
    const allowed = await browser.newContext({ baseURL: E2E_CONSOLE_URL, viewport: PHONE, permissions: ['camera'] });
    const phone = await allowed.newPage();
    await signInOfficer(phone);
    await plateField(phone).fill('AB');
    await scanButton(phone).click();
    const view = phone.getByRole('dialog', { name: 'Scan a plate' });
    await expect(view.getByRole('status')).toHaveText('Hold the plate inside the box.', { timeout: 60_000 });
    await expect(view.getByRole('button', { name: 'Use this read' })).toBeDisabled();
    const axe = await new AxeBuilder({ page: phone }).include('.scan-view').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    await view.getByRole('button', { name: 'Type instead' }).click();
    await expect(view).toBeHidden();
    await expect(plateField(phone)).toBeFocused();
    await expect(plateField(phone)).toHaveValue('AB');
    await allowed.close();

    // No permission granted: Chromium refuses the camera as a browser does once the officer has said no.
    const refused = await browser.newContext({ baseURL: E2E_CONSOLE_URL, viewport: PHONE });
    const officer = await refused.newPage();
    await signInOfficer(officer);
    await scanButton(officer).click();
    await expect(officer.getByRole('alert')).toContainText('The camera is blocked for this site. To scan, allow the camera');
    await expect(officer.getByRole('dialog', { name: 'Scan a plate' })).toBeHidden();
    await plateField(officer).fill('NOSUCH9');
    await expect(officer.locator('.verdict-headline')).toHaveText('NO RECORD');
    await refused.close();
  } finally {
    await browser.close();
  }
});
