import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { z } from 'zod';
import { ApiError, createApiClient, NETWORK_ERROR_MESSAGE } from '../../../../src/api/client';
import { readStoredSession, SESSION_STORAGE_KEY } from '../../../../src/app/session-storage';
import {
  createAuthHarness,
  flush,
  ID_TOKEN_LIFETIME_MS,
  START_TIME,
  useFakeDate,
  type AuthHarness,
} from '../../../fixtures/auth-harness';
import {
  authMachine,
  ID_TOKEN_REFRESH_LEAD_MS,
  isNetworkUnreachable,
  LOOKUP_FAILED_MESSAGE,
  OFFLINE_LOOKUP_RETRY_MS,
  selectEmail,
  selectLoginError,
  selectPermissions,
} from '../../../../src/machines/auth/auth.machine';

const ALICE = 'alice@example.com';

async function signedIn(harness: AuthHarness, email = ALICE) {
  await harness.identity(email);
  await harness.answerLookup({ userData: harness.userDataFor(email) });
  expect(harness.actor.getSnapshot().hasTag('authenticated')).toBe(true);
}

describe('authMachine', () => {
  beforeEach(useFakeDate);
  afterEach(() => vi.useRealTimers());

  it('waits for the identity provider, resolving, before anything else', () => {
    const harness = createAuthHarness();
    expect(harness.actor.getSnapshot().value).toBe('resolving');
    expect(harness.actor.getSnapshot().hasTag('resolving')).toBe(true);
    expect(harness.storage.getItem(SESSION_STORAGE_KEY)).not.toBeNull();
  });

  it('signs in: e-mail recorded, login style removed, permissions looked up and stored under lpa', async () => {
    const harness = createAuthHarness();
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

  it('without a user on start: clears local storage and lpa, signs out, then goes to /login', async () => {
    const harness = createAuthHarness();
    await harness.identity(null);
    expect(harness.storage.length).toBe(0);
    expect(harness.signOuts).toHaveLength(1);
    expect(harness.page.redirects).toBe(0);
    await harness.answerSignOut();
    expect(harness.actor.getSnapshot().hasTag('signedOut')).toBe(true);
    expect(harness.page).toEqual({ path: '/login', redirects: 1 });
  });

  it('logout clears local storage and lpa, signs out and goes to /login', async () => {
    const harness = createAuthHarness();
    await signedIn(harness);
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
    expect(harness.page).toEqual({ path: '/login', redirects: 1 });
  });

  it('a session error met by the API client clears the session and goes to /login', async () => {
    const harness = createAuthHarness();
    await signedIn(harness);
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
    expect(harness.page).toEqual({ path: '/login', redirects: 1 });
  });

  it('keeps the lookup failure for the login screen and cleans up as on sign-out', async () => {
    const harness = createAuthHarness();
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
    const harness = createAuthHarness();
    await harness.identity(ALICE);
    await harness.answerLookup({ error: new ApiError('') });
    expect(selectLoginError(harness.actor.getSnapshot())).toBe(LOOKUP_FAILED_MESSAGE);
  });

  it('refreshes the ID token exactly 5 minutes before it expires', async () => {
    const harness = createAuthHarness();
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
    const harness = createAuthHarness();
    await signedIn(harness);
    await harness.advance(harness.msUntilRefreshDue());
    await harness.answerRefresh({ idTokenExpiresAt: Date.now() + 60_000 });
    await harness.advance(0); // a zero delay still goes through the (simulated) clock
    expect(harness.refreshes).toHaveLength(2);
  });

  it('retries a failed refresh after 30 seconds', async () => {
    const harness = createAuthHarness();
    await signedIn(harness);
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
    const harness = createAuthHarness();
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
    const harness = createAuthHarness();
    await signedIn(harness);
    await harness.identity('bob@example.com');
    expect(harness.lookups.map((call) => call.email)).toEqual([ALICE, 'bob@example.com']);
    expect(selectPermissions(harness.actor.getSnapshot())).toBeNull();
    await harness.answerLookup({ userData: harness.userDataFor('bob@example.com') });
    expect(readStoredSession(harness.storage)?.token).toBe(harness.userDataFor('bob@example.com').token);
  });

  describe('offline: the stored session stands in for an unreachable server', () => {
    const unreachable = () => new ApiError(NETWORK_ERROR_MESSAGE, { cause: new TypeError('Failed to fetch') });

    /** A reload while offline: the provider restores alice, the lookup cannot reach the server. */
    async function offlineReload(harness: AuthHarness) {
      await harness.identity(ALICE);
      await harness.answerLookup({ error: unreachable() });
      expect(harness.actor.getSnapshot().value).toBe('restoringSession');
      await harness.answerRestore();
    }

    it("restores the user's own stored session, not confirmed, without the superuser flag", async () => {
      const harness = createAuthHarness({ storedSessionOf: ALICE });
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
      const harness = createAuthHarness({ storedSessionOf: ALICE });
      await offlineReload(harness);
      await harness.goOnline();
      expect(harness.actor.getSnapshot().matches({ authenticatedFromCache: 'retryingLookup' })).toBe(true);
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
      const harness = createAuthHarness({ storedSessionOf: ALICE });
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
      const refused = createAuthHarness({ storedSessionOf: ALICE });
      await offlineReload(refused);
      await refused.goOnline();
      await refused.answerLookup({ error: new ApiError('No staff account for this e-mail', { status: 404 }) });
      expect(refused.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(refused.actor.getSnapshot())).toBe('No staff account for this e-mail');
      expect(refused.storage.length).toBe(0);

      const expired = createAuthHarness({ storedSessionOf: ALICE });
      await offlineReload(expired);
      await expired.goOnline();
      // The API client reports the session error before the lookup fails with it.
      await expired.send({ type: 'auth.sessionExpired', code: 'TokenExpired' });
      expect(expired.actor.getSnapshot().value).toBe('signingOut');
      await expired.answerSignOut();
      expect(expired.page).toEqual({ path: '/login', redirects: 1 });
    });

    it("does not restore another user's stored session: signed out with the network message", async () => {
      const harness = createAuthHarness({ storedSessionOf: 'previous@example.com' });
      await offlineReload(harness);
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(harness.actor.getSnapshot())).toBe(NETWORK_ERROR_MESSAGE);
      expect(harness.storage.length).toBe(0);
    });

    it('does not fall back on the stored session when the server answered with a failure', async () => {
      const harness = createAuthHarness({ storedSessionOf: ALICE });
      await harness.identity(ALICE);
      await harness.answerLookup({ error: new ApiError('Request failed (HTTP 503)', { status: 503 }) });
      expect(harness.restores).toHaveLength(0);
      expect(harness.actor.getSnapshot().value).toBe('signingOut');
      expect(selectLoginError(harness.actor.getSnapshot())).toBe('Request failed (HTTP 503)');
    });

    it('a logout while restored from cache signs out as usual', async () => {
      const harness = createAuthHarness({ storedSessionOf: ALICE });
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
