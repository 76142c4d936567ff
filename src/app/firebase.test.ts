import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The Firebase Auth that `./firebase-auth` initialises, faked: the loader is what is under test. */
const fake = vi.hoisted(() => ({
  auth: {
    currentUser: null as { getIdToken: () => Promise<string> } | null,
    authStateReady: async () => {},
  },
}));

vi.mock('./firebase-auth', () => ({ auth: fake.auth }));

async function loader() {
  return import('./firebase');
}

/** Whether this instance of the loader has loaded Firebase (by anyone's request), after letting promises run. */
async function hasLoaded(firebase: Awaited<ReturnType<typeof loader>>): Promise<boolean> {
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 20));
  return Promise.race([firebase.firebaseAuthLoaded().then(() => true), timeout]);
}

describe('firebase (the lazy loader)', () => {
  beforeEach(() => {
    vi.resetModules();
    fake.auth.currentUser = null;
    fake.auth.authStateReady = async () => {};
  });
  afterEach(() => vi.unstubAllGlobals());

  it('imports nothing of Firebase until asked, then loads it once', async () => {
    const firebase = await loader();
    expect(await hasLoaded(firebase)).toBe(false);
    const loads = [firebase.loadFirebase(), firebase.loadFirebase()];
    expect(loads[0]).toBe(loads[1]);
    await expect(firebase.loadFirebaseAuth()).resolves.toBe(fake.auth);
    expect(await hasLoaded(firebase)).toBe(true);
  });

  it('firebaseAuthLoaded waits for a load without starting one', async () => {
    const firebase = await loader();
    const loaded = firebase.firebaseAuthLoaded();
    expect(await hasLoaded(firebase)).toBe(false);
    await firebase.loadFirebase();
    await expect(loaded).resolves.toBe(fake.auth);
  });

  it('loads when the browser is idle, at the latest after the timeout', async () => {
    const idle: Array<{ callback: () => void; timeout: number | undefined }> = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void, options?: { timeout?: number }) => {
      idle.push({ callback, timeout: options?.timeout });
      return idle.length;
    });
    const firebase = await loader();
    firebase.loadFirebaseWhenIdle();
    expect(idle).toEqual([{ callback: expect.any(Function), timeout: firebase.IDLE_LOAD_TIMEOUT_MS }]);
    expect(await hasLoaded(firebase)).toBe(false);
    idle[0]?.callback();
    await expect(firebase.firebaseAuthLoaded()).resolves.toBe(fake.auth);
  });

  it('without requestIdleCallback, loads after a short delay', async () => {
    const firebase = await loader();
    const scheduled: Array<{ callback: () => void; ms: number | undefined }> = [];
    vi.stubGlobal('requestIdleCallback', undefined);
    vi.stubGlobal('setTimeout', (callback: () => void, ms?: number) => scheduled.push({ callback, ms }));
    firebase.loadFirebaseWhenIdle();
    vi.unstubAllGlobals();
    expect(scheduled).toEqual([{ callback: expect.any(Function), ms: firebase.IDLE_LOAD_FALLBACK_MS }]);
    expect(await hasLoaded(firebase)).toBe(false);
    scheduled[0]?.callback();
    await expect(firebase.firebaseAuthLoaded()).resolves.toBe(fake.auth);
  });

  it('waits the delay asked for before waiting for the browser to be idle', async () => {
    const firebase = await loader();
    const scheduled: Array<{ callback: () => void; ms: number | undefined }> = [];
    const idle: Array<() => void> = [];
    vi.stubGlobal('setTimeout', (callback: () => void, ms?: number) => scheduled.push({ callback, ms }));
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    firebase.loadFirebaseWhenIdle(firebase.SIGNED_OUT_PRELOAD_DELAY_MS);
    expect(scheduled.map(({ ms }) => ms)).toEqual([firebase.SIGNED_OUT_PRELOAD_DELAY_MS]);
    expect(idle).toHaveLength(0);
    scheduled[0]?.callback();
    expect(idle).toHaveLength(1);
    vi.unstubAllGlobals();
    expect(await hasLoaded(firebase)).toBe(false);
    idle[0]?.();
    await expect(firebase.firebaseAuthLoaded()).resolves.toBe(fake.auth);
  });

  it("currentIdToken loads Firebase and waits for its persisted user before reading the user's token", async () => {
    const firebase = await loader();
    fake.auth.authStateReady = async () => {
      // Firebase reads back the user it persisted (IndexedDB) before it reports anyone.
      fake.auth.currentUser = { getIdToken: async () => 'id-token' };
    };
    await expect(firebase.currentIdToken()).resolves.toBe('id-token');
    expect(await hasLoaded(firebase)).toBe(true);
  });

  it('currentIdToken is null when nobody is signed in', async () => {
    const firebase = await loader();
    await expect(firebase.currentIdToken()).resolves.toBeNull();
  });
});
