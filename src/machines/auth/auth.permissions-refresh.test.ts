import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, sendTo, setup } from 'xstate';
import { createApiClient, type ApiClient } from '../../api/client';
import { readStoredSession } from '../../app/session-storage';
import { ACCOUNT_DISABLED } from '../../contract/envelope';
import { createAuthActors } from './auth.actors';
import type { AuthEvent } from './auth.machine';
import type { UserPermissions } from '../../permissions/permissions-object';
import { createAuthHarness, useFakeDate } from '../../../test/fixtures/auth-harness';
import { permissionsFor } from '../../../test/fixtures/personas';

const ALICE = 'alice@example.com';

async function signedIn() {
  const harness = createAuthHarness({ storedSession: null });
  await harness.readStoredSession();
  await harness.identity(ALICE);
  await harness.answerLookup({ userData: harness.userDataFor(ALICE) });
  return harness;
}

/** Issue 13: a changed role reaches the open console, and a disabled account signs out with a message. */
describe('authMachine: permissions kept current', () => {
  beforeEach(useFakeDate);
  afterEach(() => vi.useRealTimers());

  it('runs the permissions poller only while authenticated, and forwards a navigation’s check to it', async () => {
    const harness = await signedIn();
    expect(harness.pollers).toBe(1);
    await harness.send({ type: 'auth.refreshPermissions' });
    await harness.send({ type: 'auth.refreshPermissions' });
    expect(harness.pollerRefreshRequests).toBe(2);
    await harness.send({ type: 'auth.logout' });
    expect(harness.pollers).toBe(0);
  });

  it('records and stores changed permissions, and ignores the same ones again', async () => {
    const harness = await signedIn();
    const before = harness.actor.getSnapshot().context.permissions;
    await harness.permissionsLoaded({ ...harness.userDataFor(ALICE) });
    expect(harness.actor.getSnapshot().context.permissions).toBe(before);
    const changed = harness.changedUserDataFor(ALICE);
    await harness.permissionsLoaded(changed);
    expect(harness.actor.getSnapshot().context.permissions).toEqual(changed);
    expect(harness.actor.getSnapshot().context.permissions?.hasPromoCodePermission).toBe(false);
    expect(readStoredSession(harness.storage)?.featureLevelLocations).toEqual(changed.featureLevelLocations);
    expect(harness.actor.getSnapshot().matches('authenticated')).toBe(true);
  });

  it('never takes permissions of another e-mail for this session', async () => {
    const harness = await signedIn();
    const before = harness.actor.getSnapshot().context.permissions;
    await harness.permissionsLoaded(harness.changedUserDataFor('bob@example.com'));
    expect(harness.actor.getSnapshot().context.permissions).toBe(before);
  });

  it('signs out a disabled account, with the server’s sentence for the login screen', async () => {
    const harness = await signedIn();
    await harness.send({ type: 'auth.accountDisabled', message: 'This staff account is disabled.' });
    expect(harness.actor.getSnapshot().value).toBe('signingOut');
    await harness.answerSignOut();
    const snapshot = harness.actor.getSnapshot();
    expect(snapshot.value).toBe('signedOut');
    expect(snapshot.context.loginError).toBe('This staff account is disabled.');
    expect(snapshot.context.permissions).toBeNull();
    expect(readStoredSession(harness.storage)).toBeNull();
    expect(harness.page.path).toBe('/login');
  });
});

/** A parent that runs the poller as the auth machine does, keeping what it sends back. */
function runPoller(permissionsPoller: ReturnType<typeof createAuthActors>['permissionsPoller']) {
  const parent = setup({
    types: { context: {} as { received: AuthEvent[] }, events: {} as AuthEvent | { type: 'check' } },
    actors: { permissionsPoller },
  }).createMachine({
    context: { received: [] },
    invoke: { id: 'poller', src: 'permissionsPoller' },
    on: {
      'auth.permissionsLoaded': { actions: assign({ received: ({ context, event }) => [...context.received, event] }) },
      check: { actions: sendTo('poller', { type: 'refresh' as const }) },
    },
  });
  const actor = createActor(parent).start();
  return { actor, received: () => actor.getSnapshot().context.received };
}

describe('permissionsPoller (the browser implementation)', () => {
  afterEach(() => vi.useRealTimers());

  function clientAnswering(answers: Array<() => Response>) {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => (answers.shift() ?? answers.at(-1) ?? (() => new Response('{}')))());
    const onAccountDisabled = vi.fn();
    const client: ApiClient = createApiClient({
      apiBase: '/api',
      getIdToken: async () => 'id-token',
      getSessionToken: () => 'session',
      onSessionError: () => {},
      onAccountDisabled,
      fetch,
    });
    return { client, fetch, onAccountDisabled };
  }
  const userData = (email: string): UserPermissions => ({ ...permissionsFor({ pc: { v: [1] } }, email), token: 'session' });
  const ok = () => new Response(JSON.stringify({ success: true, data: { userData: userData(ALICE) } }), { status: 200 });

  it('asks GET /load-permissions/ every interval and when told, reporting what the server says', async () => {
    vi.useFakeTimers();
    const { client, fetch } = clientAnswering([ok, ok, ok]);
    const { permissionsPoller } = createAuthActors({
      firebase: { loaded: () => new Promise(() => {}), load: () => new Promise(() => {}) },
      client,
      isOnline: () => true,
      permissionsRefreshMs: 1000,
    });
    const { actor, received } = runPoller(permissionsPoller);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toContain('/load-permissions/');
    expect(received()).toEqual([{ type: 'auth.permissionsLoaded', userData: userData(ALICE) }]);
    actor.send({ type: 'check' });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    actor.stop();
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a disabled account is reported through the client, not as permissions', async () => {
    vi.useFakeTimers();
    const disabled = () =>
      new Response(JSON.stringify({ success: false, error: ACCOUNT_DISABLED, message: 'This staff account is disabled.' }), { status: 403 });
    const { client, onAccountDisabled } = clientAnswering([disabled]);
    const { permissionsPoller } = createAuthActors({
      firebase: { loaded: () => new Promise(() => {}), load: () => new Promise(() => {}) },
      client,
      isOnline: () => true,
      permissionsRefreshMs: 1000,
    });
    const { actor, received } = runPoller(permissionsPoller);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onAccountDisabled).toHaveBeenCalledWith('This staff account is disabled.');
    expect(received()).toEqual([]);
    actor.stop();
  });
});
