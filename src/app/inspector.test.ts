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

  it('opens the inspector on first use when asked for (VITE_XSTATE_INSPECT=true) and passes on every event in order', async () => {
    vi.stubEnv('VITE_XSTATE_INSPECT', 'true');
    const { inspect } = await import('./inspector');
    expect(stately.created).toBe(0);
    inspect?.(event(1));
    inspect?.(event(2));
    await flush();
    inspect?.(event(3));
    expect(stately.created).toBe(1);
    expect(stately.next.mock.calls.map(([e]) => (e as { n: number }).n)).toEqual([1, 2, 3]);
  });

  it('is undefined unless asked for: no popup sends the console to the background at sign-in', async () => {
    vi.stubEnv('VITE_XSTATE_INSPECT', '');
    expect((await import('./inspector')).inspect).toBeUndefined();
    vi.resetModules();
    vi.stubEnv('VITE_XSTATE_INSPECT', 'false');
    expect((await import('./inspector')).inspect).toBeUndefined();
  });
});
