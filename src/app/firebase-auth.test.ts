import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('firebase/app', () => ({ initializeApp: vi.fn((options: unknown) => ({ options })) }));
vi.mock('firebase/auth', () => ({
  initializeAuth: vi.fn(() => ({ currentUser: null })),
  connectAuthEmulator: vi.fn(),
  indexedDBLocalPersistence: { type: 'LOCAL', name: 'indexedDB' },
  browserLocalPersistence: { type: 'LOCAL', name: 'localStorage' },
}));

async function loadFirebase() {
  const module = await import('./firebase-auth');
  return { module, app: await import('firebase/app'), auth: await import('firebase/auth') };
}

describe('firebase-auth', () => {
  beforeEach(() => {
    vi.resetModules();
    for (const name of [
      'VITE_FIREBASE_API_KEY',
      'VITE_FIREBASE_PROJECT_ID',
      'VITE_FIREBASE_AUTH_DOMAIN',
      'VITE_FIREBASE_AUTH_EMULATOR_URL',
    ]) {
      vi.stubEnv(name, '');
    }
  });
  afterEach(() => vi.unstubAllEnvs());

  it('initialises with the demo project by default, persisting in IndexedDB else local storage', async () => {
    const { module, app, auth } = await loadFirebase();
    expect(app.initializeApp).toHaveBeenCalledWith({
      apiKey: 'demo-api-key',
      projectId: 'demo-lpa',
      authDomain: 'demo-lpa.firebaseapp.com',
    });
    expect(auth.initializeAuth).toHaveBeenCalledWith(module.firebaseApp, {
      persistence: [auth.indexedDBLocalPersistence, auth.browserLocalPersistence],
    });
    expect(auth.connectAuthEmulator).not.toHaveBeenCalled();
  });

  it('takes the project from the environment and connects to the emulator when one is named', async () => {
    vi.stubEnv('VITE_FIREBASE_API_KEY', 'key-1');
    vi.stubEnv('VITE_FIREBASE_PROJECT_ID', 'lpa-staging');
    vi.stubEnv('VITE_FIREBASE_AUTH_EMULATOR_URL', 'http://127.0.0.1:9099');
    const { module, app, auth } = await loadFirebase();
    expect(app.initializeApp).toHaveBeenCalledWith({
      apiKey: 'key-1',
      projectId: 'lpa-staging',
      authDomain: 'lpa-staging.firebaseapp.com',
    });
    expect(auth.connectAuthEmulator).toHaveBeenCalledWith(module.auth, 'http://127.0.0.1:9099', {
      disableWarnings: true,
    });
  });
});
