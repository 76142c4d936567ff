import { describe, expect, it } from 'vitest';
import { createSessionTokens } from '../../server/auth/session-token';
import {
  clearStoredSession,
  readStoredSession,
  restoreStoredSession,
  SESSION_STORAGE_KEY,
  sessionTokenClaims,
  writeStoredSession,
} from './session-storage';
import { MemoryStorage } from '../../test/fixtures/memory-storage';
import { permissionsFor } from '../../test/fixtures/personas';
import { fakeSessionToken } from '../../test/fixtures/session-tokens';

const officer = (token = 'server-session') => ({ ...permissionsFor({ e: { v: [1] } }), token });

describe('session storage (lpa)', () => {
  it('writes the token and featureLevelLocations under lpa and reads them back', () => {
    const storage = new MemoryStorage();
    const userData = officer();
    writeStoredSession(storage, userData);
    expect(JSON.parse(storage.getItem(SESSION_STORAGE_KEY) ?? 'null')).toEqual({
      token: 'server-session',
      featureLevelLocations: userData.featureLevelLocations,
    });
    expect(readStoredSession(storage)).toEqual({
      token: 'server-session',
      featureLevelLocations: userData.featureLevelLocations,
    });
    expect(readStoredSession(storage)?.featureLevelLocations.enforcementLocations).toEqual([
      expect.objectContaining({ location_id: 1 }),
    ]);
  });

  it('reads null when lpa is absent', () => {
    expect(readStoredSession(new MemoryStorage())).toBeNull();
  });

  it.each([
    ['not JSON', '{token:'],
    ['JSON null', 'null'],
    ['missing featureLevelLocations', JSON.stringify({ token: 't' })],
    ['empty token', JSON.stringify({ token: '', featureLevelLocations: officer().featureLevelLocations })],
  ])('reads null when lpa is corrupt (%s)', (_, raw) => {
    const storage = new MemoryStorage();
    storage.setItem(SESSION_STORAGE_KEY, raw);
    expect(readStoredSession(storage)).toBeNull();
  });

  it('clear removes lpa and everything else in local storage', () => {
    const storage = new MemoryStorage();
    writeStoredSession(storage, officer());
    storage.setItem('other', 'value');
    clearStoredSession(storage);
    expect(storage.length).toBe(0);
    expect(readStoredSession(storage)).toBeNull();
  });
});

describe('sessionTokenClaims', () => {
  it('reads the e-mail and expiry of a token the API issued, without its secret', async () => {
    const now = new Date('2030-01-01T09:00:00Z');
    const tokens = createSessionTokens({ secret: new TextEncoder().encode('x'.repeat(32)), ttlSeconds: 3600, now: () => now });
    const { token, expiresAt } = await tokens.issue({ email: 'officer@example.com', uid: 'uid-officer' });
    expect(sessionTokenClaims(token)).toEqual({ email: 'officer@example.com', expiresAt: expiresAt.getTime() });
  });

  it('decodes base64url payloads, non-ASCII included', () => {
    const token = fakeSessionToken('zoë+night?shift@example.com', Date.UTC(2030, 0, 1), { note: '~~~>>>???' });
    expect(sessionTokenClaims(token)).toEqual({ email: 'zoë+night?shift@example.com', expiresAt: Date.UTC(2030, 0, 1) });
  });

  it('reports no expiry when the token has none', () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(sessionTokenClaims(`${part({ alg: 'none' })}.${part({ email: 'a@example.com' })}.`)).toEqual({
      email: 'a@example.com',
      expiresAt: null,
    });
  });

  it.each([
    ['not a JWT', 'session-token-for-a@example.com'],
    ['two parts', 'aGVhZGVy.eyJlbWFpbCI6ImFAZXhhbXBsZS5jb20ifQ'],
    ['an empty payload', 'aGVhZGVy..sig'],
    ['a payload that is not base64', 'aGVhZGVy.%%%.sig'],
    ['a payload that is not JSON', `aGVhZGVy.${Buffer.from('{email').toString('base64url')}.sig`],
    ['a JSON payload that is not an object', `aGVhZGVy.${Buffer.from('"a@example.com"').toString('base64url')}.sig`],
    ['no e-mail', `aGVhZGVy.${Buffer.from('{"sub":"a"}').toString('base64url')}.sig`],
    ['an e-mail that is not a string', `aGVhZGVy.${Buffer.from('{"email":1}').toString('base64url')}.sig`],
  ])('reads null from %s', (_, token) => {
    expect(sessionTokenClaims(token)).toBeNull();
  });
});

describe('restoreStoredSession', () => {
  const NOW = Date.UTC(2030, 0, 1, 9);
  const HOUR = 3_600_000;
  function storedFor(tokenEmail: string, expiresAt = NOW + HOUR) {
    const storage = new MemoryStorage();
    const userData = { ...permissionsFor({ e: { v: [1, 2] } }, tokenEmail), token: fakeSessionToken(tokenEmail, expiresAt) };
    writeStoredSession(storage, userData);
    return { storage, userData };
  }

  it("rebuilds the permissions of this user's unexpired session", () => {
    const { storage, userData } = storedFor('officer@example.com');
    const restored = restoreStoredSession(storage, 'officer@example.com', NOW);
    expect(restored).toMatchObject({
      email: 'officer@example.com',
      token: userData.token,
      superuser: false,
      hasEnforcementPermission: true,
      featureLevelLocations: userData.featureLevelLocations,
    });
  });

  it('compares e-mails without regard to case', () => {
    const { storage } = storedFor('Officer@Example.com');
    expect(restoreStoredSession(storage, 'officer@example.com', NOW)?.email).toBe('officer@example.com');
  });

  it("refuses another user's session", () => {
    const { storage } = storedFor('previous@example.com');
    expect(restoreStoredSession(storage, 'officer@example.com', NOW)).toBeNull();
  });

  it('refuses a session whose token has expired (exp is in whole seconds)', () => {
    const { storage } = storedFor('officer@example.com', NOW + 1000);
    expect(restoreStoredSession(storage, 'officer@example.com', NOW + 999)).not.toBeNull();
    expect(restoreStoredSession(storage, 'officer@example.com', NOW + 1000)).toBeNull();
  });

  it('refuses a token without expiry or that is not a JWT, and an absent session', () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const storage = new MemoryStorage();
    expect(restoreStoredSession(storage, 'officer@example.com', NOW)).toBeNull();
    const userData = permissionsFor({ e: { v: [1] } }, 'officer@example.com');
    writeStoredSession(storage, { ...userData, token: `${part({})}.${part({ email: 'officer@example.com' })}.s` });
    expect(restoreStoredSession(storage, 'officer@example.com', NOW)).toBeNull();
    writeStoredSession(storage, { ...userData, token: 'session-token-for-officer@example.com' });
    expect(restoreStoredSession(storage, 'officer@example.com', NOW)).toBeNull();
  });
});
