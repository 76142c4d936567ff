import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthActorRef } from '../machines/auth/auth.machine';
import type { AuthView } from '../routes/-shared/auth-gate';

/** The engine itself (worker, comlink, sync machine) is replaced: these tests are about when it is loaded and told. */
const engine = vi.hoisted(() => ({
  starts: 0,
  sent: [] as unknown[],
  clears: 0,
}));
vi.mock('./start-enforcement-engine', () => ({
  startEnforcementEngine: () => {
    engine.starts += 1;
    return {
      engine: {
        sync: { send: (event: unknown) => engine.sent.push(event) },
        worker: { clear: async () => void (engine.clears += 1) },
      },
      opened: Promise.resolve(),
    };
  },
}));
// The auth actor's snapshots are given here as the views the app derives from them.
vi.mock('./auth-actor', () => ({ authViewOf: (view: AuthView) => view }));
vi.mock('./config', () => ({ config: { apiBase: 'http://api.test' } }));

const { connectEnforcementEngine } = await import('./enforcement-engine');

function fakeAuthActor() {
  const observers: ((view: AuthView) => void)[] = [];
  const actor = { subscribe: (observer: (view: AuthView) => void) => void observers.push(observer) };
  return { actor: actor as unknown as AuthActorRef, emit: (view: AuthView) => observers.forEach((o) => o(view)) };
}

const officer = (...locationIds: number[]): AuthView =>
  ({
    status: 'authenticated',
    authEnabled: true,
    permissions: { featureLevelLocations: { enforcementLocations: locationIds.map((location_id) => ({ location_id })) } },
  }) as unknown as AuthView;
const signedOut: AuthView = { status: 'signedOut', loginError: null };
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const sessions = () =>
  engine.sent.map((event) => {
    const { signedIn, locationIds } = event as { signedIn: boolean; locationIds: number[] };
    return { signedIn, locationIds };
  });

describe('the enforcement engine', () => {
  beforeEach(() => {
    engine.starts = 0;
    engine.sent = [];
    engine.clears = 0;
  });

  it('is not loaded for a visitor or a user without enforcement locations', async () => {
    const { actor, emit } = fakeAuthActor();
    const holder = connectEnforcementEngine(actor);
    emit({ status: 'resolving' });
    emit(signedOut);
    emit(officer());
    await settle();
    expect(engine.starts).toBe(0);
    expect(holder.get()).toBeNull();
  });

  it('loads for a user with enforcement locations, then tells it the latest session and its subscribers', async () => {
    const { actor, emit } = fakeAuthActor();
    const holder = connectEnforcementEngine(actor);
    const listener = vi.fn();
    holder.subscribe(listener);
    emit(officer(1));
    emit(officer(1, 2));
    expect(holder.get()).toBeNull();
    await settle();
    expect(engine.starts).toBe(1);
    expect(holder.get()).not.toBeNull();
    expect(listener).toHaveBeenCalledOnce();
    expect(sessions()).toEqual([{ signedIn: true, locationIds: [1, 2] }]);
    expect(engine.sent[0]).toMatchObject({ type: 'sync.sessionChanged', apiBase: 'http://api.test' });

    emit(signedOut);
    await settle();
    expect(sessions().at(-1)).toEqual({ signedIn: false, locationIds: [] });
    expect(engine.clears).toBe(1);
  });

  it('empties the local store when the user signed out while it was loading', async () => {
    const { actor, emit } = fakeAuthActor();
    connectEnforcementEngine(actor);
    emit(officer(1));
    emit(signedOut);
    emit(officer(3));
    await settle();
    expect(engine.starts).toBe(1);
    expect(engine.clears).toBe(1);
    expect(sessions()).toEqual([{ signedIn: true, locationIds: [3] }]);
  });
});
