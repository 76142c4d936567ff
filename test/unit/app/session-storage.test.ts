import { describe, expect, it } from 'vitest';
import {
  clearStoredSession,
  readStoredSession,
  SESSION_STORAGE_KEY,
  writeStoredSession,
} from '../../../src/app/session-storage';
import { MemoryStorage } from '../../fixtures/memory-storage';
import { permissionsFor } from '../../fixtures/personas';

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
