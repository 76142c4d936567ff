import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Auth, User } from 'firebase/auth';
import { createActor, setup, toPromise, waitFor } from 'xstate';
import { ApiError, createApiClient } from '../../api/client';
import { readStoredSession, writeStoredSession } from '../../app/session-storage';
import { browserSessionStore } from '../../app/stored-session-store';
import { flush } from '../../../test/fixtures/auth-harness';
import { MemoryStorage } from '../../../test/fixtures/memory-storage';
import { permissionsFor } from '../../../test/fixtures/personas';
import { fakeSessionToken } from '../../../test/fixtures/session-tokens';
import {
  createAuthActions,
  createAuthActors,
  createAuthImplementations,
  createStoredSessionActors,
  type FirebaseAuthLoader,
} from './auth.actors';
import { authMachine, isNetworkUnreachable, type AuthEvent } from './auth.machine';

/** What the actors use of Firebase Auth: its own methods, on the Auth object and the User. */
const firebase = {
  listener: undefined as ((user: User | null) => void) | undefined,
  unsubscribe: vi.fn(),
  getIdTokenResult: vi.fn(),
  signOut: vi.fn(async () => {}),
};

const EXPIRES = '2030-01-01T10:00:00.000Z';
const fakeUser = (email: string | null) => ({ email, getIdTokenResult: firebase.getIdTokenResult }) as unknown as User;
const fakeAuth = (currentUser: User | null = null) =>
  ({
    currentUser,
    onIdTokenChanged: (listener: (user: User | null) => void) => {
      firebase.listener = listener;
      return firebase.unsubscribe;
    },
    signOut: firebase.signOut,
  }) as unknown as Auth;

/** Firebase already loaded: both ways of asking for it answer at once. */
const loadedFirebase = (auth: Auth = fakeAuth()) => ({ loaded: async () => auth, load: async () => auth });

/** Firebase not loaded yet: `loaded()` waits for `finishLoading`, `load()` counts the requests and finishes it. */
function lazyFirebase(auth: Auth = fakeAuth()) {
  let finishLoading: () => void = () => {};
  const whenLoaded = new Promise<Auth>((resolve) => (finishLoading = () => resolve(auth)));
  const loads = vi.fn(async () => {
    finishLoading();
    return whenLoaded;
  });
  return { loader: { loaded: () => whenLoaded, load: loads }, loads, finishLoading: () => finishLoading() };
}

function providerReports(user: User | null) {
  if (!firebase.listener) throw new Error('onIdTokenChanged has no listener');
  firebase.listener(user);
}

function apiAnswering(data: unknown, getIdToken: () => Promise<string | null> = async () => 'id-token') {
  const fetch = vi.fn<typeof globalThis.fetch>(
    async () => new Response(JSON.stringify({ success: true, data }), { status: 200 }),
  );
  const client = createApiClient({
    apiBase: '/api',
    getIdToken,
    getSessionToken: () => null,
    onSessionError: () => {},
    fetch,
  });
  return { client, fetch };
}

/** A Cache Storage holding the given caches. */
function fakeCaches(names: string[]) {
  const held = new Set(names);
  return {
    held,
    keys: async () => [...held],
    delete: async (name: string) => held.delete(name),
  };
}

beforeEach(() => {
  firebase.listener = undefined;
  vi.clearAllMocks();
  firebase.getIdTokenResult.mockResolvedValue({ expirationTime: EXPIRES });
});

describe('identityListener', () => {
  /** Runs the listener under a parent that records what it sends back. */
  function listen(loader: FirebaseAuthLoader = loadedFirebase()) {
    const received: AuthEvent[] = [];
    const { identityListener } = createAuthActors({ firebase: loader, client: apiAnswering(null).client });
    const recorder = setup({ types: { events: {} as AuthEvent }, actors: { identityListener } }).createMachine({
      invoke: { src: 'identityListener' },
      on: { '*': { actions: ({ event }) => received.push(event) } },
    });
    const parent = createActor(recorder).start();
    return { received, parent };
  }

  it('waits for Firebase to load, without loading it, then reports what it holds', async () => {
    const { loader, loads, finishLoading } = lazyFirebase();
    const { received } = listen(loader);
    await flush();
    expect(loads).not.toHaveBeenCalled();
    expect(firebase.listener).toBeUndefined();
    finishLoading();
    await flush();
    providerReports(null);
    await flush();
    expect(received).toEqual([{ type: 'auth.identityChanged', user: null }]);
  });

  it('never listens when stopped before Firebase has loaded', async () => {
    const { loader, finishLoading } = lazyFirebase();
    const { parent } = listen(loader);
    parent.stop();
    finishLoading();
    await flush();
    expect(firebase.listener).toBeUndefined();
  });

  it('reports a signed-in user with the expiry of the ID token', async () => {
    const { received } = listen();
    await flush();
    providerReports(fakeUser('alice@example.com'));
    await flush();
    expect(received).toEqual([
      { type: 'auth.identityChanged', user: { email: 'alice@example.com', idTokenExpiresAt: Date.parse(EXPIRES) } },
    ]);
  });

  it('reports nobody after sign-out, and an identity without an e-mail as nobody', async () => {
    const { received } = listen();
    await flush();
    providerReports(null);
    await flush();
    providerReports(fakeUser(null));
    await flush();
    expect(received).toEqual([
      { type: 'auth.identityChanged', user: null },
      { type: 'auth.identityChanged', user: null },
    ]);
  });

  it('reports the token as due now when its expiry cannot be read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2030, 0, 1));
    firebase.getIdTokenResult.mockRejectedValueOnce(new Error('auth/network-request-failed'));
    const { received } = listen();
    await flush();
    providerReports(fakeUser('alice@example.com'));
    await flush();
    expect(received).toEqual([
      { type: 'auth.identityChanged', user: { email: 'alice@example.com', idTokenExpiresAt: Date.UTC(2030, 0, 1) } },
    ]);
    vi.useRealTimers();
  });

  it('drops a change overtaken by a later one', async () => {
    let finishSlowRead: (value: { expirationTime: string }) => void = () => {};
    firebase.getIdTokenResult.mockReturnValueOnce(new Promise((resolve) => (finishSlowRead = resolve)));
    const { received } = listen();
    await flush();
    providerReports(fakeUser('alice@example.com'));
    providerReports(null);
    await flush();
    finishSlowRead({ expirationTime: EXPIRES });
    await flush();
    expect(received).toEqual([{ type: 'auth.identityChanged', user: null }]);
  });

  it('unsubscribes from Firebase when stopped', async () => {
    const { parent } = listen();
    await flush();
    parent.stop();
    expect(firebase.unsubscribe).toHaveBeenCalledOnce();
  });
});

describe('promise actors', () => {
  describe('readStoredSession', () => {
    const read = (storage: MemoryStorage) => {
      const { readStoredSession } = createStoredSessionActors({ session: browserSessionStore({ storage }) });
      return toPromise(createActor(readStoredSession).start());
    };

    it("answers with the stored session's permissions, whoever's, while its token is valid", async () => {
      const storage = new MemoryStorage();
      const token = fakeSessionToken('bob@example.com', Date.now() + 3_600_000);
      writeStoredSession(storage, { ...permissionsFor({ e: { v: [2] } }, 'bob@example.com'), token });
      await expect(read(storage)).resolves.toMatchObject({ email: 'bob@example.com', token, superuser: false });
    });

    it('answers null for an expired session, one that is not a JWT with an e-mail, or none', async () => {
      const expired = new MemoryStorage();
      writeStoredSession(expired, {
        ...permissionsFor({ e: { v: [2] } }, 'bob@example.com'),
        token: fakeSessionToken('bob@example.com', Date.now() - 1),
      });
      const opaque = new MemoryStorage();
      writeStoredSession(opaque, { ...permissionsFor({ e: { v: [2] } }), token: 'not-a-jwt' });
      await expect(read(expired)).resolves.toBeNull();
      await expect(read(opaque)).resolves.toBeNull();
      await expect(read(new MemoryStorage())).resolves.toBeNull();
      expect(expired.length).toBe(1);
    });
  });

  it('lookupPermissions posts the e-mail through the API client', async () => {
    const userData = permissionsFor({ e: { v: [1] } }, 'alice@example.com');
    const { client, fetch } = apiAnswering({ userData });
    const { lookupPermissions } = createAuthActors({ firebase: loadedFirebase(), client });
    const actor = createActor(lookupPermissions, { input: { email: 'alice@example.com' } }).start();
    await expect(toPromise(actor)).resolves.toEqual(userData);
    expect(fetch).toHaveBeenCalledWith('/api/auth/permissions', expect.objectContaining({ method: 'POST' }));
  });

  describe('lookupPermissions without a network', () => {
    const run = async (deps: Parameters<typeof createAuthActors>[0]) => {
      const { lookupPermissions } = createAuthActors(deps);
      return toPromise(createActor(lookupPermissions, { input: { email: 'alice@example.com' } }).start());
    };

    it('sends nothing while the browser is offline, and fails as unreachable', async () => {
      const { client, fetch } = apiAnswering({ userData: permissionsFor({}) });
      const failure = await run({ firebase: loadedFirebase(), client, isOnline: () => false }).catch((error: unknown) => error);
      expect(isNetworkUnreachable(failure)).toBe(true);
      expect(fetch).not.toHaveBeenCalled();
    });

    it('fails as unreachable when the API cannot be reached', async () => {
      const { client, fetch } = apiAnswering(null);
      fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      const failure = await run({ firebase: loadedFirebase(), client, isOnline: () => true }).catch((error: unknown) => error);
      expect(isNetworkUnreachable(failure)).toBe(true);
    });

    it('fails as unreachable when the ID token cannot be refreshed for want of a network', async () => {
      const firebaseError = Object.assign(new Error('Firebase: Error (auth/network-request-failed).'), {
        code: 'auth/network-request-failed',
      });
      const { client } = apiAnswering(null, async () => Promise.reject(firebaseError));
      const failure = await run({ firebase: loadedFirebase(), client, isOnline: () => true }).catch((error: unknown) => error);
      expect(isNetworkUnreachable(failure)).toBe(true);
      expect((failure as ApiError).cause).toBeInstanceOf(ApiError);
    });

    it('passes every other failure through as it is', async () => {
      const { client, fetch } = apiAnswering(null);
      fetch.mockResolvedValueOnce(
        new Response(JSON.stringify({ success: false, message: 'No staff account for this e-mail' }), { status: 404 }),
      );
      const failure = await run({ firebase: loadedFirebase(), client, isOnline: () => true }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).message).toBe('No staff account for this e-mail');
      expect(isNetworkUnreachable(failure)).toBe(false);
    });

    it('reports a failure as unreachable when the browser went offline during the call', async () => {
      let online = true;
      const { client, fetch } = apiAnswering(null);
      fetch.mockImplementationOnce(async () => {
        online = false;
        return new Response('<html>captive portal</html>', { status: 200 });
      });
      const failure = await run({ firebase: loadedFirebase(), client, isOnline: () => online }).catch((error: unknown) => error);
      expect(isNetworkUnreachable(failure)).toBe(true);
    });
  });

  describe('restoreSession', () => {
    it("restores the user's own stored session and refuses anyone else's", async () => {
      const storage = new MemoryStorage();
      const userData = permissionsFor({ e: { v: [1, 2] } }, 'alice@example.com');
      const token = fakeSessionToken('alice@example.com', Date.now() + 3_600_000);
      writeStoredSession(storage, { ...userData, token });
      const { restoreSession } = createStoredSessionActors({ session: browserSessionStore({ storage }) });
      const restore = (email: string) => toPromise(createActor(restoreSession, { input: { email } }).start());

      await expect(restore('alice@example.com')).resolves.toMatchObject({
        email: 'alice@example.com',
        token,
        superuser: false,
        hasEnforcementPermission: true,
        featureLevelLocations: userData.featureLevelLocations,
      });
      await expect(restore('bob@example.com')).rejects.toThrow('No valid stored session of bob@example.com');
    });
  });

  it('onlineListener reports the browser coming back online until it is stopped', async () => {
    const events = new EventTarget();
    const received: AuthEvent[] = [];
    const { onlineListener } = createAuthActors({
      firebase: loadedFirebase(),
      client: apiAnswering(null).client,
      onlineEvents: events,
    });
    const recorder = setup({ types: { events: {} as AuthEvent }, actors: { onlineListener } }).createMachine({
      invoke: { src: 'onlineListener' },
      on: { '*': { actions: ({ event }) => received.push(event) } },
    });
    const parent = createActor(recorder).start();
    events.dispatchEvent(new Event('online'));
    events.dispatchEvent(new Event('offline'));
    expect(received).toEqual([{ type: 'auth.online' }]);
    parent.stop();
    events.dispatchEvent(new Event('online'));
    expect(received).toHaveLength(1);
  });

  it('signOut loads Firebase if it has not loaded yet, and signs out of it', async () => {
    const { loader, loads } = lazyFirebase();
    const { signOut } = createAuthActors({ firebase: loader, client: apiAnswering(null).client });
    await toPromise(createActor(signOut).start());
    expect(loads).toHaveBeenCalledOnce();
    expect(firebase.signOut).toHaveBeenCalledOnce();
  });

  it('refreshIdToken forces a new token and returns its expiry', async () => {
    const user = fakeUser('alice@example.com');
    const { refreshIdToken } = createAuthActors({ firebase: loadedFirebase(fakeAuth(user)), client: apiAnswering(null).client });
    await expect(toPromise(createActor(refreshIdToken).start())).resolves.toEqual({
      idTokenExpiresAt: Date.parse(EXPIRES),
    });
    expect(firebase.getIdTokenResult).toHaveBeenCalledWith(true);
  });

  it('refreshIdToken fails when nobody is signed in', async () => {
    const { refreshIdToken } = createAuthActors({ firebase: loadedFirebase(fakeAuth(null)), client: apiAnswering(null).client });
    await expect(toPromise(createActor(refreshIdToken).start())).rejects.toThrow('No signed-in user');
  });
});

describe('browser actions', () => {
  it('store and clear the session, remove the login style, and redirect', () => {
    const storage = new MemoryStorage();
    const body = { classList: { remove: vi.fn() } };
    const redirectToLogin = vi.fn();
    const cacheStorage = fakeCaches([]);
    const session = browserSessionStore({ storage, cacheStorage });
    const actions = createAuthActions({ session, body, redirectToLogin });
    const userData = { ...permissionsFor({ e: { v: [1] } }), token: 'server-session' };

    actions.storeSession(undefined, { userData });
    expect(readStoredSession(storage)?.token).toBe('server-session');
    storage.setItem('unrelated', '1');
    actions.clearSession();
    expect(storage.length).toBe(0);
    actions.removeLoginStyle();
    expect(body.classList.remove).toHaveBeenCalledWith('login');
    actions.redirectToLogin();
    expect(redirectToLogin).toHaveBeenCalledOnce();
  });

  it("clearing the session also deletes the service worker's runtime caches, keeping the app shell", async () => {
    const precache = 'lpa-precache-v2-http://127.0.0.1:4183/';
    const cacheStorage = fakeCaches([precache, 'lpa-runtime', 'images']);
    const actions = createAuthActions({
      session: browserSessionStore({ storage: new MemoryStorage(), cacheStorage }),
      body: { classList: { remove: vi.fn() } },
      redirectToLogin: vi.fn(),
    });
    actions.clearSession();
    await flush();
    expect([...cacheStorage.held]).toEqual([precache]);
  });

  it('clearing the session works where there is no Cache Storage, and survives a failing one', async () => {
    const storage = new MemoryStorage();
    storage.setItem('lpa', '{}');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const base = { body: { classList: { remove: vi.fn() } }, redirectToLogin: vi.fn() };
    createAuthActions({ ...base, session: browserSessionStore({ storage, cacheStorage: undefined }) }).clearSession();
    expect(storage.length).toBe(0);
    const broken = { keys: () => Promise.reject(new Error('SecurityError')), delete: async () => false };
    createAuthActions({ ...base, session: browserSessionStore({ storage, cacheStorage: broken }) }).clearSession();
    await flush();
    expect(warn).toHaveBeenCalledWith('Could not clear the caches', expect.any(Error));
    warn.mockRestore();
  });
});

describe('authMachine with the real implementations', () => {
  function start(storage: MemoryStorage, loader: FirebaseAuthLoader, userData: unknown) {
    const redirectToLogin = vi.fn();
    const machine = authMachine.provide(
      createAuthImplementations({
        firebase: loader,
        client: apiAnswering({ userData }).client,
        redirectToLogin,
        session: browserSessionStore({ storage }),
        body: { classList: { remove: () => true } },
      }),
    );
    return { actor: createActor(machine).start(), redirectToLogin };
  }

  it('signed out at once without a valid stored session; signs in through Firebase and the API, then logs out', async () => {
    const storage = new MemoryStorage();
    writeStoredSession(storage, { ...permissionsFor({ e: { v: [1] } }), token: 'stale' });
    const userData = { ...permissionsFor({ e: { v: [1] } }, 'alice@example.com'), token: 'fresh' };
    const { loader, finishLoading } = lazyFirebase();
    const { actor, redirectToLogin } = start(storage, loader, userData);
    await waitFor(actor, (snapshot) => snapshot.hasTag('signedOut'));
    expect(redirectToLogin).toHaveBeenCalledOnce();

    finishLoading(); // e.g. the login form asked for Firebase to sign in
    await flush();
    providerReports(fakeUser('alice@example.com'));
    await waitFor(actor, (snapshot) => snapshot.hasTag('authenticated'));
    expect(readStoredSession(storage)?.token).toBe('fresh');

    actor.send({ type: 'auth.logout' });
    await waitFor(actor, (snapshot) => snapshot.matches('signedOut'));
    expect(firebase.signOut).toHaveBeenCalledOnce();
    expect(storage.length).toBe(0);
    expect(redirectToLogin).toHaveBeenCalledTimes(2);
    actor.stop();
  });

  it('resumes a valid stored session at once, and confirms it once Firebase has loaded', async () => {
    const storage = new MemoryStorage();
    const stale = fakeSessionToken('alice@example.com', Date.now() + 3_600_000);
    writeStoredSession(storage, { ...permissionsFor({ e: { v: [1] } }, 'alice@example.com'), token: stale });
    const userData = { ...permissionsFor({ e: { v: [1] } }, 'alice@example.com'), token: 'fresh' };
    const { loader, finishLoading } = lazyFirebase();
    const { actor } = start(storage, loader, userData);
    await waitFor(actor, (snapshot) => snapshot.hasTag('authenticated'));
    expect(actor.getSnapshot().hasTag('fromCache')).toBe(true);
    expect(actor.getSnapshot().context.permissions?.token).toBe(stale);

    finishLoading();
    await flush();
    providerReports(fakeUser('alice@example.com'));
    await waitFor(actor, (snapshot) => snapshot.matches('authenticated'));
    expect(readStoredSession(storage)?.token).toBe('fresh');
    actor.stop();
  });
});
