import { expect, test, type Page, type Request } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import { expectHeading, signIn } from './sign-in';

interface SyncCall {
  tab: 'A' | 'B';
  type: string;
  start: number;
  end: number;
}

/** Records each enforcement sync request a tab (or its worker) makes, with when it started and finished. */
function recordSyncCalls(page: Page, tab: 'A' | 'B', calls: SyncCall[]): Map<Request, number> {
  const started = new Map<Request, number>();
  page.on('request', (request) => {
    if (request.url().includes('/enforcement/transactions') && request.method() === 'POST') {
      started.set(request, Date.now());
    }
  });
  page.on('requestfinished', (request) => {
    const start = started.get(request);
    if (start === undefined) return;
    const type = new URL(request.url()).searchParams.get('type') ?? '?';
    calls.push({ tab, type, start, end: Date.now() });
  });
  return started;
}

test('two tabs of one browser run one sync at a time', async ({ context }) => {
  // Slow every page down so the two tabs' checks overlap the sync for certain.
  await context.route('**/enforcement/transactions**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  const calls: SyncCall[] = [];
  const tabA = await context.newPage();
  const startedByA = recordSyncCalls(tabA, 'A', calls);
  await tabA.goto('/login');
  await signIn(tabA, demoAccount('officer').email, demoAccount('officer').password);
  await expectHeading(tabA, 'Enforcement');
  // Tab B opens while tab A's sync is under way, holding the sync lock.
  await expect.poll(() => startedByA.size, { timeout: 20_000 }).toBeGreaterThan(0);

  const tabB = await context.newPage();
  recordSyncCalls(tabB, 'B', calls);
  await tabB.goto('/');
  await expectHeading(tabB, 'Home');

  // One round: each of the five types once, all from one tab, one after another.
  await expect.poll(() => calls.length, { timeout: 45_000 }).toBe(5);
  await tabB.waitForTimeout(3_000);
  expect(calls.map((call) => call.type)).toEqual(['valid', 'expired', 'spothero', 'parkwhiz', 'monthly_parkers']);
  expect(new Set(calls.map((call) => call.tab)).size).toBe(1);
  for (let i = 1; i < calls.length; i += 1) {
    expect(calls[i]!.start).toBeGreaterThanOrEqual(calls[i - 1]!.end - 5);
  }
});
