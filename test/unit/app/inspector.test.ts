import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InspectionEvent } from 'xstate';

const stately = vi.hoisted(() => ({ next: vi.fn(), created: 0 }));
vi.mock('@statelyai/inspect', () => ({
  createBrowserInspector: () => {
    stately.created += 1;
    return { inspect: { next: stately.next } };
  },
}));

const event = (n: number) => ({ type: '@xstate.event', n }) as unknown as InspectionEvent;
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('inspect', () => {
  beforeEach(() => {
    vi.resetModules();
    stately.next.mockClear();
    stately.created = 0;
  });
  afterEach(() => vi.unstubAllEnvs());

  it('opens the inspector on first use in development and passes on every event in order', async () => {
    const { inspect } = await import('../../../src/app/inspector');
    expect(stately.created).toBe(0);
    inspect?.(event(1));
    inspect?.(event(2));
    await flush();
    inspect?.(event(3));
    expect(stately.created).toBe(1);
    expect(stately.next.mock.calls.map(([e]) => (e as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it('is undefined when turned off', async () => {
    vi.stubEnv('VITE_XSTATE_INSPECT', 'false');
    const { inspect } = await import('../../../src/app/inspector');
    expect(inspect).toBeUndefined();
  });
});
