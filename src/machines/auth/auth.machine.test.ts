import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { z } from 'zod';
import { ApiError, createApiClient, NETWORK_ERROR_MESSAGE } from '../../api/client';
import { readStoredSession, SESSION_STORAGE_KEY } from '../../app/session-storage';
import {
  createAuthHarness,
  flush,
  ID_TOKEN_LIFETIME_MS,
  START_TIME,
  useFakeDate,
  writeHarnessSession,
  type AuthHarness,
} from '../../../test/fixtures/auth-harness';
import {
  authMachine,
  ID_TOKEN_REFRESH_LEAD_MS,
  isNetworkUnreachable,
  LOOKUP_FAILED_MESSAGE,
  OFFLINE_LOOKUP_RETRY_MS,
  selectEmail,
  selectLoginError,
  selectPermissions,
} from './auth.machine';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';
const unreachable = () => new ApiError(NETWORK_ERROR_MESSAGE, { cause: new TypeError('Failed to fetch') });

/** A harness past its start: signed out at once (no valid stored session), as on the login page. */
async function signedOutAtStart(options: Parameters<typeof createAuthHarness>[0] = {}) {
  const harness = createAuthHarness(options);
  await harness.readStoredSession();
  expect(harness.actor.getSnapshot().value).toBe('signedOut');
  return harness;
}

/** Signed in through the login page: no valid stored session, then the identity provider and the lookup answer. */
async function signedIn(email = ALICE) {
  const harness = await signedOutAtStart();
  await harness.identity(email);
  await harness.answerLookup({ userData: harness.userDataFor(email) });
  expect(harness.actor.getSnapshot().hasTag('authenticated')).toBe(true);
  return harness;
}

/** A reload with alice's valid session stored: signed in from it at once, Firebase not yet loaded. */
async function resumed() {
  const harness = createAuthHarness({ storedSession: { of: ALICE } });
  await harness.readStoredSession();
  return harness;
}

describe('authMachine', () => {
  beforeEach(useFakeDate);
  afterEach(() => vi.useRealTimers());

  it('reads the stored session before anything else, resolving meanwhile', () => {
    const harness = createAuthHarness();
    expect(harness.actor.getSnapshot().value).toBe('readingStoredSession');
    expect(harness.actor.getSnapshot().hasTag('resolving')).toBe(true);
    expect(harness.storedSessionReads).toHaveLength(1);
    expect(harness.storage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
  });

  describe('without a valid stored session: signed out at once, without waiting for Firebase', () => {
    it.each([
      ['an expired one', { of: ALICE, expired: true }],
      ['none at all', null],
    ] as const)('%s: goes to /login, clears nothing and signs nothing out', async (_, storedSession) => {
      const harness = createAuthHarness({ storedSession });
      const before = harness.storage.length;
      await harness.readStoredSession();
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.value).toBe('signedOut');
      expect(selectLoginError(snapshot)).toBeNull();
      expect(harness.page).toEqual({ path: '/login', redirects: 1 });
      expect(harness.storage.length).toBe(before);
      expect(harness.signOuts).toHaveLength(0);
      expect(harness.lookups).toHaveLength(0);
      expect(harness.body.classes.has('login')).toBe(true);
    });

    it('storage that cannot be read counts as none', async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      await harness.failStoredSessionRead();
      expect(harness.actor.getSnapshot().value).toBe('signedOut');
      expect(harness.signOuts).toHaveLength(0);
      expect(harness.page.path).toBe('/login');
    });

    it('Firebase, once loaded, reporting nobody changes nothing', async () => {
      const harness = await signedOutAtStart();
      await harness.identity(null);
      expect(harness.actor.getSnapshot().value).toBe('signedOut');
      expect(harness.signOuts).toHaveLength(0);
      expect(harness.storage.getItem('unrelated')).not.toBeNull();
    });

    it('Firebase, once loaded, still holding a user: that user is looked up', async () => {
      const harness = await signedOutAtStart();
      await harness.identity(ALICE);
      expect(harness.actor.getSnapshot().value).toBe('lookingUp');
      expect(harness.lookups.map((call) => call.email)).toEqual([ALICE]);
      await harness.answerLookup({ userData: harness.userDataFor(ALICE) });
      expect(harness.actor.getSnapshot().matches('authenticated')).toBe(true);
    });
  });

  describe('with a valid stored session: its user signed in at once, confirmed in the background', () => {
    it('authenticated from the stored session, not confirmed, before Firebase has said anything', async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      const stored = readStoredSession(harness.storage);
      await harness.readStoredSession();
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches({ authenticatedFromCache: 'awaitingIdentity' })).toBe(true);
      expect(snapshot.hasTag('authenticated') && snapshot.hasTag('fromCache') && snapshot.hasTag('confirming')).toBe(true);
      expect(selectEmail(snapshot)).toBe(ALICE);
      expect(selectPermissions(snapshot)).toMatchObject({
        email: ALICE,
        token: stored?.token,
        superuser: false,
        hasEnforcementPermission: true,
        featureLevelLocations: stored?.featureLevelLocations,
      });
      expect(harness.body.classes.has('login')).toBe(false);
      expect(harness.page.redirects).toBe(0);
      expect(harness.lookups).toHaveLength(0);
      expect(harness.onlineListeners).toBe(0);
      // Nothing is refreshed or retried before Firebase reports.
      await harness.advance(OFFLINE_LOOKUP_RETRY_MS + ID_TOKEN_LIFETIME_MS);
      expect(harness.lookups).toHaveLength(0);
      expect(harness.refreshes).toHaveLength(0);
    });

    it('Firebase reporting the same user: looked up, then authenticated with the stored session renewed', async () => {
      const harness = await resumed();
      const user = await harness.identity(ALICE);
      let snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches({ authenticatedFromCache: 'confirming' })).toBe(true);
      // Still signed in from the stored session meanwhile: the page does not drop to a spinner.
      expect(snapshot.hasTag('authenticated') && !snapshot.hasTag('resolving')).toBe(true);
      expect(harness.lookups.map((call) => call.email)).toEqual([ALICE]);
      expect(snapshot.context.idTokenExpiresAt).toBe(user?.idTokenExpiresAt);

      const userData = harness.userDataFor(ALICE);
      await harness.answerLookup({ userData });
      snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches('authenticated')).toBe(true);
      expect(snapshot.hasTag('fromCache')).toBe(false);
      expect(selectPermissions(snapshot)).toEqual(userData);
      expect(readStoredSession(harness.storage)?.token).toBe(userData.token);
      await harness.advance(harness.msUntilRefreshDue());
      expect(harness.refreshes).toHaveLength(1);
    });

    it('the same user whatever the case of the e-mail Firebase reports', async () => {
      const harness = await resumed();
      await harness.identity('Alice@Example.com');
      expect(harness.actor.getSnapshot().matches({ authenticatedFromCache: 'confirming' })).toBe(true);
      expect(harness.lookups.map((call) => call.email)).toEqual([ALICE]);
    });

    it('Firebase reporting another user: that user is looked up, without the stored permissions', async () => {
      const harness = await resumed();
      await harness.identity(BOB);
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.value).toBe('lookingUp');
      expect(selectEmail(snapshot)).toBe(BOB);
      expect(selectPermissions(snapshot)).toBeNull();
      expect(harness.lookups.map((call) => call.email)).toEqual([BOB]);
      await harness.answerLookup({ userData: harness.userDataFor(BOB) });
      expect(readStoredSession(harness.storage)?.token).toBe(harness.userDataFor(BOB).token);
    });

    it('Firebase reporting nobody: clears local storage and lpa, signs out, then goes to /login', async () => {
      const harness = await resumed();
      await harness.identity(null);
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(harness.storage.length).toBe(0);
      expect(harness.signOuts).toHaveLength(1);
      expect(harness.page.redirects).toBe(0);
      await harness.answerSignOut();
      expect(harness.actor.getSnapshot().hasTag('signedOut')).toBe(true);
      expect(harness.page).toEqual({ path: '/login', redirects: 1 });
    });

    it('the lookup unable to reach the server: stays signed in from the stored session, retried online', async () => {
      const harness = await resumed();
      await harness.identity(ALICE);
      await harness.answerLookup({ error: unreachable() });
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches({ authenticatedFromCache: 'awaitingNetwork' })).toBe(true);
      expect(snapshot.hasTag('confirming')).toBe(false);
      expect(selectLoginError(snapshot)).toBeNull();
      expect(harness.storage.getItem('unrelated')).not.toBeNull();
      await harness.goOnline();
      expect(harness.lookups.map((call) => call.email)).toEqual([ALICE, ALICE]);
      await harness.answerLookup({ userData: harness.userDataFor(ALICE) });
      expect(harness.actor.getSnapshot().matches('authenticated')).toBe(true);
    });

    it('any other lookup failure signs out with its message', async () => {
      const harness = await resumed();
      await harness.identity(ALICE);
      await harness.answerLookup({ error: new ApiError('No staff account for this e-mail', { status: 404 }) });
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(harness.actor.getSnapshot())).toBe('No staff account for this e-mail');
      expect(harness.storage.length).toBe(0);
      await harness.answerSignOut();
      expect(harness.page).toEqual({ path: '/login', redirects: 1 });
    });

    it('a logout before Firebase has loaded signs out of it all the same', async () => {
      const harness = await resumed();
      await harness.send({ type: 'auth.logout' });
      expect(harness.storage.length).toBe(0);
      expect(harness.signOuts).toHaveLength(1);
      await harness.answerSignOut();
      expect(harness.actor.getSnapshot().hasTag('signedOut')).toBe(true);
    });
  });

  it('signs in: e-mail recorded, login style removed, permissions looked up and stored under lpa', async () => {
    const harness = await signedOutAtStart();
    await harness.identity(ALICE);
    expect(harness.actor.getSnapshot().hasTag('resolving')).toBe(true);
    expect(selectEmail(harness.actor.getSnapshot())).toBe(ALICE);
    expect(harness.body.classes.has('login')).toBe(false);
    expect(harness.lookups.map((call) => call.email)).toEqual([ALICE]);

    const userData = harness.userDataFor(ALICE);
    await harness.answerLookup({ userData });
    expect(harness.actor.getSnapshot().hasTag('authenticated')).toBe(true);
    expect(selectPermissions(harness.actor.getSnapshot())).toEqual(userData);
    expect(readStoredSession(harness.storage)).toEqual({
      token: userData.token,
      featureLevelLocations: userData.featureLevelLocations,
    });
  });

  it('logout clears local storage and lpa, signs out and goes to /login', async () => {
    const harness = await signedIn();
    await harness.send({ type: 'auth.logout' });
    expect(harness.storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    expect(harness.storage.getItem('unrelated')).toBeNull();
    expect(selectPermissions(harness.actor.getSnapshot())).toBeNull();
    expect(harness.signOuts).toHaveLength(1);
    await harness.answerSignOut();
    // The provider then reports nobody; that changes nothing more.
    await harness.identity(null);
    expect(harness.actor.getSnapshot().value).toBe('signedOut');
    expect(harness.signOuts).toHaveLength(1);
    // Once at the start (no valid stored session), once after the sign-out.
    expect(harness.page).toEqual({ path: '/login', redirects: 2 });
    expect(harness.effects).toEqual(['redirect', 'signOut', 'redirect']);
  });

  it('a session error met by the API client clears the session and goes to /login', async () => {
    const harness = await signedIn();
    const client = createApiClient({
      apiBase: '/api',
      getIdToken: async () => 'id-token',
      getSessionToken: () => readStoredSession(harness.storage)?.token ?? null,
      onSessionError: (code) => harness.actor.send({ type: 'auth.sessionExpired', code }),
      fetch: async () =>
        new Response(JSON.stringify({ success: false, error: 'TokenExpired', message: 'jwt expired' }), {
          status: 401,
        }),
    });
    await expect(client.get('/locations', undefined, z.unknown())).rejects.toMatchObject({ code: 'TokenExpired' });
    await flush();
    expect(harness.actor.getSnapshot().value).toBe('signingOut');
    await harness.answerSignOut();
    expect(harness.storage.length).toBe(0);
    expect(harness.actor.getSnapshot().hasTag('signedOut')).toBe(true);
    expect(harness.effects.slice(-2)).toEqual(['signOut', 'redirect']);
  });

  it('keeps the lookup failure for the login screen and cleans up as on sign-out', async () => {
    const harness = await signedOutAtStart();
    await harness.identity('stranger@example.com');
    await harness.answerLookup({ error: new ApiError('No staff account for this e-mail', { status: 404 }) });
    expect(selectLoginError(harness.actor.getSnapshot())).toBe('No staff account for this e-mail');
    expect(harness.storage.length).toBe(0);
    await harness.answerSignOut();
    await harness.identity(null);
    expect(harness.page.path).toBe('/login');
    expect(selectLoginError(harness.actor.getSnapshot())).toBe('No staff account for this e-mail');

    // The next sign-in attempt starts clean.
    await harness.identity(ALICE);
    expect(selectLoginError(harness.actor.getSnapshot())).toBeNull();
  });

  it('shows a generic message when the lookup fails without one (no ID token)', async () => {
    const harness = await signedOutAtStart();
    await harness.identity(ALICE);
    await harness.answerLookup({ error: new ApiError('') });
    expect(selectLoginError(harness.actor.getSnapshot())).toBe(LOOKUP_FAILED_MESSAGE);
  });

  it('refreshes the ID token exactly 5 minutes before it expires', async () => {
    const harness = await signedOutAtStart();
    const user = await harness.identity(ALICE);
    await harness.answerLookup({ userData: harness.userDataFor(ALICE) });
    const expiresAt = user?.idTokenExpiresAt ?? 0;
    expect(expiresAt).toBe(START_TIME + ID_TOKEN_LIFETIME_MS);

    await harness.advance(expiresAt - ID_TOKEN_REFRESH_LEAD_MS - Date.now() - 1);
    expect(harness.refreshes).toHaveLength(0);
    await harness.advance(1);
    expect(Date.now()).toBe(expiresAt - 5 * 60_000);
    expect(harness.refreshes).toHaveLength(1);
    expect(harness.actor.getSnapshot().matches({ authenticated: 'refreshingIdToken' })).toBe(true);

    // The next refresh is scheduled from the new expiry.
    const nextExpiry = Date.now() + ID_TOKEN_LIFETIME_MS;
    await harness.answerRefresh({ idTokenExpiresAt: nextExpiry });
    expect(harness.actor.getSnapshot().context.idTokenExpiresAt).toBe(nextExpiry);
    await harness.advance(ID_TOKEN_LIFETIME_MS - ID_TOKEN_REFRESH_LEAD_MS - 1);
    expect(harness.refreshes).toHaveLength(1);
    await harness.advance(1);
    expect(harness.refreshes).toHaveLength(2);
  });

  it('refreshes at once when the token is already within 5 minutes of expiry', async () => {
    const harness = await signedIn();
    await harness.advance(harness.msUntilRefreshDue());
    await harness.answerRefresh({ idTokenExpiresAt: Date.now() + 60_000 });
    await harness.advance(0); // a zero delay still goes through the (simulated) clock
    expect(harness.refreshes).toHaveLength(2);
  });

  it('retries a failed refresh after 30 seconds', async () => {
    const harness = await signedIn();
    await harness.advance(harness.msUntilRefreshDue());
    await harness.answerRefresh({ error: new Error('auth/network-request-failed') });
    expect(harness.actor.getSnapshot().matches({ authenticated: 'awaitingRefreshRetry' })).toBe(true);
    await harness.advance(29_999);
    expect(harness.refreshes).toHaveLength(1);
    await harness.advance(1);
    expect(harness.refreshes).toHaveLength(2);
    expect(harness.actor.getSnapshot().hasTag('authenticated')).toBe(true);
  });

  it('an identity change for the same e-mail does not look permissions up again, only updates the expiry', async () => {
    const harness = await signedOutAtStart();
    await harness.identity(ALICE);
    await harness.advance(1_000);
    await harness.identity(ALICE); // e.g. the provider refreshed the token while the lookup ran
    expect(harness.lookups).toHaveLength(1);
    expect(harness.actor.getSnapshot().value).toBe('lookingUp');

    await harness.answerLookup({ userData: harness.userDataFor(ALICE) });
    await harness.advance(10 * 60_000);
    const user = await harness.identity(ALICE);
    expect(harness.lookups).toHaveLength(1);
    expect(harness.actor.getSnapshot().context.idTokenExpiresAt).toBe(user?.idTokenExpiresAt);
    expect(selectPermissions(harness.actor.getSnapshot())).toEqual(harness.userDataFor(ALICE));

    // The refresh follows the new expiry, not the one it was first scheduled for.
    await harness.advance(harness.msUntilRefreshDue() - 1);
    expect(harness.refreshes).toHaveLength(0);
    await harness.advance(1);
    expect(harness.refreshes).toHaveLength(1);
  });

  it('an identity change to a different e-mail looks permissions up again, dropping the old ones', async () => {
    const harness = await signedIn();
    await harness.identity(BOB);
    expect(harness.lookups.map((call) => call.email)).toEqual([ALICE, BOB]);
    expect(selectPermissions(harness.actor.getSnapshot())).toBeNull();
    await harness.answerLookup({ userData: harness.userDataFor(BOB) });
    expect(readStoredSession(harness.storage)?.token).toBe(harness.userDataFor(BOB).token);
  });

  describe('offline: the stored session stands in for an unreachable server', () => {
    /** A reload while offline: alice is signed in from her stored session; the lookup cannot reach the server. */
    async function offlineReload(harness: AuthHarness) {
      await harness.readStoredSession();
      await harness.identity(ALICE);
      await harness.answerLookup({ error: unreachable() });
    }

    /**
     * Firebase reports a user whose lookup cannot reach the server (e.g. another tab signed them in): the stored
     * session restores them if it is theirs.
     */
    async function identityOffline(harness: AuthHarness, email: string) {
      await harness.identity(email);
      await harness.answerLookup({ error: unreachable() });
      expect(harness.actor.getSnapshot().value).toBe('restoringSession');
      await harness.answerRestore();
    }

    it("keeps the user's own stored session, not confirmed, without the superuser flag", async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      const stored = readStoredSession(harness.storage);
      await offlineReload(harness);
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches({ authenticatedFromCache: 'awaitingNetwork' })).toBe(true);
      expect(snapshot.hasTag('authenticated') && snapshot.hasTag('fromCache')).toBe(true);
      expect(selectPermissions(snapshot)).toMatchObject({
        email: ALICE,
        token: stored?.token,
        superuser: false,
        hasEnforcementPermission: true,
        featureLevelLocations: stored?.featureLevelLocations,
      });
      expect(selectLoginError(snapshot)).toBeNull();
      // Nothing was written or cleared, and the ID token is not refreshed while offline.
      expect(readStoredSession(harness.storage)).toEqual(stored);
      expect(harness.storage.getItem('unrelated')).not.toBeNull();
      await harness.advance(ID_TOKEN_LIFETIME_MS);
      expect(harness.refreshes).toHaveLength(0);
    });

    it('back online, looks the permissions up again and becomes confirmed, with the session renewed', async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      await offlineReload(harness);
      await harness.goOnline();
      expect(harness.actor.getSnapshot().matches({ authenticatedFromCache: 'confirming' })).toBe(true);
      expect(harness.lookups.map((call) => call.email)).toEqual([ALICE, ALICE]);
      const userData = harness.userDataFor(ALICE);
      await harness.answerLookup({ userData });
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.hasTag('authenticated') && !snapshot.hasTag('fromCache')).toBe(true);
      expect(selectPermissions(snapshot)).toEqual(userData);
      expect(readStoredSession(harness.storage)?.token).toBe(userData.token);
      // From now on, as after any sign-in: the ID token is refreshed before it expires.
      await harness.advance(harness.msUntilRefreshDue());
      expect(harness.refreshes).toHaveLength(1);
    });

    it('keeps waiting when the server is still unreachable, and tries again every minute', async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      await offlineReload(harness);
      await harness.goOnline();
      await harness.answerLookup({ error: unreachable() });
      expect(harness.actor.getSnapshot().matches({ authenticatedFromCache: 'awaitingNetwork' })).toBe(true);
      await harness.advance(OFFLINE_LOOKUP_RETRY_MS - 1);
      expect(harness.lookups).toHaveLength(2);
      await harness.advance(1);
      expect(harness.lookups).toHaveLength(3);
      expect(harness.actor.getSnapshot().hasTag('fromCache')).toBe(true);
    });

    it('signs out when the server, reached again, refuses the user or the session', async () => {
      const refused = createAuthHarness({ storedSession: { of: ALICE } });
      await offlineReload(refused);
      await refused.goOnline();
      await refused.answerLookup({ error: new ApiError('No staff account for this e-mail', { status: 404 }) });
      expect(refused.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(refused.actor.getSnapshot())).toBe('No staff account for this e-mail');
      expect(refused.storage.length).toBe(0);

      const expired = createAuthHarness({ storedSession: { of: ALICE } });
      await offlineReload(expired);
      await expired.goOnline();
      // The API client reports the session error before the lookup fails with it.
      await expired.send({ type: 'auth.sessionExpired', code: 'TokenExpired' });
      expect(expired.actor.getSnapshot().value).toBe('signingOut');
      await expired.answerSignOut();
      expect(expired.page).toEqual({ path: '/login', redirects: 1 });
    });

    it('restores a user Firebase reports while the server is unreachable, from their own stored session', async () => {
      const harness = await signedIn(ALICE);
      writeHarnessSession(harness.storage, BOB); // e.g. another tab signed bob in
      const stored = readStoredSession(harness.storage);
      await identityOffline(harness, BOB);
      const snapshot = harness.actor.getSnapshot();
      expect(snapshot.matches({ authenticatedFromCache: 'awaitingNetwork' })).toBe(true);
      expect(selectPermissions(snapshot)).toMatchObject({ email: BOB, token: stored?.token, superuser: false });
      expect(selectLoginError(snapshot)).toBeNull();
    });

    it("does not restore another user's stored session: signed out with the network message", async () => {
      // lpa names bob, so bob is signed in from it; Firebase holds alice, whose lookup cannot reach the server.
      const harness = createAuthHarness({ storedSession: { of: BOB } });
      await harness.readStoredSession();
      await identityOffline(harness, ALICE);
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(harness.actor.getSnapshot())).toBe(NETWORK_ERROR_MESSAGE);
      expect(harness.storage.length).toBe(0);
    });

    it('does not fall back on the stored session when the server answered with a failure', async () => {
      const harness = await resumed();
      await harness.identity(ALICE);
      await harness.answerLookup({ error: new ApiError('Request failed (HTTP 503)', { status: 503 }) });
      expect(harness.restores).toHaveLength(0);
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(harness.actor.getSnapshot())).toBe('Request failed (HTTP 503)');
    });

    it('a logout while restored from cache signs out as usual', async () => {
      const harness = createAuthHarness({ storedSession: { of: ALICE } });
      await offlineReload(harness);
      await harness.send({ type: 'auth.logout' });
      expect(harness.storage.length).toBe(0);
      await harness.answerSignOut();
      expect(harness.actor.getSnapshot().hasTag('signedOut')).toBe(true);
      expect(harness.onlineListeners).toBe(0);
    });

    it('tells a network failure from the API client apart from every other failure', () => {
      expect(isNetworkUnreachable(unreachable())).toBe(true);
      expect(isNetworkUnreachable(new ApiError(NETWORK_ERROR_MESSAGE, { status: 502 }))).toBe(false);
      expect(isNetworkUnreachable(new ApiError('No staff account for this e-mail', { status: 404 }))).toBe(false);
      expect(isNetworkUnreachable(new Error(NETWORK_ERROR_MESSAGE))).toBe(false);
      expect(isNetworkUnreachable(undefined)).toBe(false);
    });
  });

  it('names the implementation the app has not provided', () => {
    const errors: unknown[] = [];
    const actor = createActor(authMachine);
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(String(errors[0])).toContain("'identityListener' has no implementation");
  });
});
