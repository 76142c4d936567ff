import { expect, test, type Page, type Worker } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { expectHeading, signIn } from './sign-in';

/**
 * The end-to-end console is the production build, served by `vite preview` with the production hosting headers
 * (firebase.json, read by vite.config.ts): the meta-tag policy and the header policy both apply, as in production.
 */

interface Violation {
  where: string;
  directive: string;
  blocked: string;
  sample: string;
}

declare global {
  interface Window {
    __reportCspViolation?: (violation: Violation) => void;
  }
}

/** Every CSP violation the page, its workers and the console report, from the first script on. */
async function watchViolations(page: Page) {
  const violations: Violation[] = [];
  await page.exposeFunction('__reportCspViolation', (violation: Violation) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__reportCspViolation?.({
        where: location.pathname,
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      }),
    );
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) {
      violations.push({ where: message.location().url, directive: 'console', blocked: '', sample: message.text() });
    }
  });
  // A worker runs under its own policy (its script's headers); its violations fire in its own scope.
  const workers: Worker[] = [];
  page.on('worker', (worker) => {
    workers.push(worker);
    void worker
      .evaluate(() => {
        const scope = self as unknown as { __csp: string[] } & typeof globalThis;
        scope.__csp = [];
        scope.addEventListener('securitypolicyviolation', (event) =>
          scope.__csp.push(
            `${(event as SecurityPolicyViolationEvent).effectiveDirective}: ${(event as SecurityPolicyViolationEvent).sample}`,
          ),
        );
      })
      .catch(() => undefined);
  });
  const workerViolations = async () =>
    (
      await Promise.all(
        workers.map((worker) =>
          worker.evaluate(() => (self as unknown as { __csp?: string[] }).__csp ?? []).catch(() => []),
        ),
      )
    ).flat();
  return { violations, workers, workerViolations };
}

test.describe('the production build under its Content-Security-Policy', () => {
  test('reports no violation on /login, /list and an admin page', async ({ page }) => {
    const watch = await watchViolations(page);

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    // Firebase loads on the login page 2 s after it is shown: let it, since it is part of what the page runs.
    await page.waitForTimeout(2500);
    expect(watch.violations, '/login').toEqual([]);

    const admin = demoAccount('admin');
    await signIn(page, admin.email, admin.password);
    await expectHeading(page, 'Real Time Dashboard');
    await page.goto('/list');
    await expectHeading(page, 'Enforcement');
    // The worker's first sync parses every page it receives: wait for it to finish.
    await expect(page.getByText('synced just now', { exact: false }).first()).toBeVisible({ timeout: 45_000 });
    expect(watch.workers.length, 'the enforcement worker started').toBeGreaterThan(0);
    expect(watch.violations, '/list').toEqual([]);

    await page.goto('/locations');
    await expect(page.getByRole('cell', { name: 'Union Station Garage' }).first()).toBeVisible();
    expect(watch.violations, '/locations').toEqual([]);
    expect(await watch.workerViolations(), 'workers').toEqual([]);

    // The watch itself works: code compiled from a string, as zod's `new Function` probe was, is reported in the
    // page and in a worker. (A string timer: code Playwright evaluates directly is exempt from the policy.)
    const compileFromString = () => void setTimeout('void 0', 0);
    await page.evaluate(compileFromString);
    const liveWorker = page.workers().at(-1);
    expect(liveWorker, 'a worker of the current page').toBeDefined();
    await liveWorker!.evaluate(compileFromString);
    await expect.poll(() => watch.violations.some((violation) => violation.directive === 'script-src')).toBe(true);
    await expect.poll(() => watch.workerViolations()).toEqual([expect.stringMatching(/^script-src/)]);
  });

  test('is served with the hosting headers and without source maps', async ({ request }) => {
    const index = await request.get('/login');
    expect(index.status()).toBe(200);
    const headers = index.headers();
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    const html = await index.text();
    expect(html).toContain('http-equiv="Content-Security-Policy"');

    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const code = await (await request.get(script)).text();
      expect(code, script).not.toMatch(/sourceMappingURL/);
      // vite preview answers unknown paths with index.html; what matters is that no map comes back.
      expect(await (await request.get(`${script}.map`)).text(), `${script}.map`).not.toMatch(/"mappings"/);
    }
  });
});
