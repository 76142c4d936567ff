import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
} from 'firebase/auth';

/**
 * Firebase Auth, initialised. The one module that imports `firebase/*`; it is never imported statically, only
 * through `loadFirebase()` (./firebase.ts), so that Firebase stays out of the entry chunk
 * (docs/decisions/0006-firebase-off-the-critical-path.md).
 */

// The login screen's calls, loaded with `auth` rather than from the entry chunk.
export { sendPasswordResetEmail, signInWithEmailAndPassword, validatePassword } from 'firebase/auth';

const env = import.meta.env;
const projectId: string = env.VITE_FIREBASE_PROJECT_ID || 'demo-lpa';

export const firebaseApp = initializeApp({
  apiKey: env.VITE_FIREBASE_API_KEY || 'demo-api-key',
  projectId,
  authDomain: env.VITE_FIREBASE_AUTH_DOMAIN || `${projectId}.firebaseapp.com`,
});

// The first persistence the browser supports is used: IndexedDB, else local storage.
export const auth = initializeAuth(firebaseApp, {
  persistence: [indexedDBLocalPersistence, browserLocalPersistence],
});

const emulatorUrl: string | undefined = env.VITE_FIREBASE_AUTH_EMULATOR_URL || undefined;
if (emulatorUrl) {
  // Must follow initializeAuth at once, before any other use of `auth`.
  connectAuthEmulator(auth, emulatorUrl, { disableWarnings: true });
}
