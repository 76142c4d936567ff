import { expect, type Page } from '@playwright/test';

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
