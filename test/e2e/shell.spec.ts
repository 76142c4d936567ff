import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { expectHeading, signIn } from './sign-in';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 360, height: 740 },
] as const;

for (const { name, width, height } of WIDTHS) {
  test(`the app shell at ${name} width (${width} px) passes axe and fits the screen`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height });
    await page.goto('/login');
    await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
    await expectHeading(page, 'Real Time Dashboard');
    const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
    await expect(sidebar).toHaveClass(width >= 1200 ? /sidebar-open/ : /sidebar-collapsed/);

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
    await page.screenshot({ path: testInfo.outputPath(`shell-${name}.png`), fullPage: true });

    if (width < 1200) {
      // The toggle is reachable from the keyboard and opens the full sidebar over the page.
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(sidebar).toHaveClass(/sidebar-open/);
      expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`shell-${name}-open.png`) });
      await page.getByRole('link', { name: 'Locations' }).click();
      await expectHeading(page, 'Locations');
      await expect(sidebar).toHaveClass(/sidebar-collapsed/);
    }
  });
}

test('a collapsed sidebar icon shows its name as a tooltip', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/login');
  await signIn(page, demoAccount('finance').email, demoAccount('finance').password);
  await expectHeading(page, 'Real Time Dashboard');
  const icon = page.getByRole('link', { name: 'Settled Dashboard' });
  // Radix Tooltip arrives at idle time (src/ui/idle-import.ts) and then wraps the icon (its trigger's data-state).
  await expect(icon).toHaveAttribute('data-state', 'closed');
  await icon.hover();
  await expect(page.getByRole('tooltip', { name: 'Settled Dashboard' })).toBeVisible();
});

test('API errors surface as a toast with the server message, and F8 reaches it', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, demoAccount('admin').email, demoAccount('admin').password);
  await expectHeading(page, 'Real Time Dashboard');
  await page.route('**/locations', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Database is restarting' }) }),
  );
  await page.getByRole('link', { name: 'Locations' }).click();
  const toastArea = page.getByRole('region', { name: /Notifications/ });
  await expect(toastArea.getByText('Database is restarting')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Database is restarting' })).toBeVisible();
  await page.keyboard.press('F8');
  await expect(page.locator('.toast-viewport')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Escape');
  await expect(toastArea.getByText('Database is restarting')).toBeHidden();
});

test('no browser logging starts away from the production admin host', async ({ page }) => {
  const intake: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('datadoghq') || request.url().includes('browser-intake')) intake.push(request.url());
  });
  await page.goto('/login');
  await signIn(page, demoAccount('officer').email, demoAccount('officer').password);
  await expectHeading(page, 'Enforcement');
  await page.evaluate(() => console.error('an error that must stay on this machine'));
  expect(await page.evaluate(() => 'DD_LOGS' in window)).toBe(false);
  expect(intake).toEqual([]);
});
