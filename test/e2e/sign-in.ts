import { expect, type Page } from '@playwright/test';
import { demoAccount } from '../../server/db/seed/demo-accounts';

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function storedSession(page: Page): Promise<{ lpa: string | null; keys: number }> {
  return page.evaluate(() => ({ lpa: localStorage.getItem('lpa'), keys: localStorage.length }));
}

export async function expectHeading(page: Page, text: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: text, exact: true })).toBeVisible();
}

/** The demo officer signed in, on /list with the store's first sync done (what every field test starts from). */
export async function signInOfficer(page: Page): Promise<void> {
  await page.goto('/login');
  await signIn(page, demoAccount('officer').email, demoAccount('officer').password);
  await expect(page).toHaveURL(/\/list$/);
  await expectHeading(page, 'Enforcement');
  const line = page.getByRole('status').filter({ hasText: /^(Online|Offline) · / });
  await expect(line).toContainText('data synced just now', { timeout: 45_000 });
  await expect(line).not.toContainText(/Syncing|Downloading/, { timeout: 45_000 });
}
