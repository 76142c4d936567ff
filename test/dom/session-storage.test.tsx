import { expect, it } from 'vitest';
import { clearStoredSession, readStoredSession, writeStoredSession } from '../../src/app/session-storage';
import { permissionsFor } from '../fixtures/personas';

it('uses window.localStorage when no storage is given', () => {
  writeStoredSession(undefined, { ...permissionsFor({ su: true }), token: 'browser-session' });
  expect(readStoredSession()?.token).toBe('browser-session');
  window.localStorage.setItem('unrelated', '1');
  clearStoredSession();
  expect(window.localStorage.length).toBe(0);
});
