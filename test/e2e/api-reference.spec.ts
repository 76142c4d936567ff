import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './test';
import { E2E_API_URL } from './stack';

/**
 * The API reference page (development only, server/api-reference/page.ts) as a browser shows it: every operation of
 * the document, nothing loaded from anywhere but the API, no policy violation, and no axe finding, folded and open.
 */
function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${E2E_API_URL}/`) && !url.startsWith('data:')) problems.push(`outside request: ${url}`);
  });
  return problems;
}

test('the API reference page shows every operation from the API alone and passes axe', async ({ page, request }) => {
  // Two axe runs over every operation of the API: 34 s alone on a quiet machine, over a minute beside another worker.
  test.setTimeout(180_000);
  const problems = watch(page);
  const document = (await (await request.get(`${E2E_API_URL}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  const operations = Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0);

  await page.goto(`${E2E_API_URL}/reference`);
  await expect(page.locator('.opblock')).toHaveCount(operations, { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Lightning Pay Admin API reference' })).toBeAttached();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // An operation open, with its request form: the state a reader works in.
  await page.locator('.opblock-summary-control').first().click();
  await page.getByRole('button', { name: 'Try it out' }).click();
  await expect(page.getByRole('button', { name: 'Execute' })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  expect(problems).toEqual([]);
});
