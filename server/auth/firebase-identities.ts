import { getAuth } from 'firebase-admin/auth';
import type { CreateIdentity } from '../db/seed/apply-user-seed';
import { firebaseApp } from './firebase-app';

/**
 * Creates or updates seeded accounts in the Firebase Auth emulator. It refuses to run without
 * FIREBASE_AUTH_EMULATOR_HOST, so development seeds can never reach a real Firebase project.
 */
export function createEmulatorIdentities(projectId: string): CreateIdentity {
  if (!process.env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('Seeding sign-in accounts needs the Auth emulator: set FIREBASE_AUTH_EMULATOR_HOST.');
  }
  const auth = getAuth(firebaseApp(projectId));
  return async ({ email, password, displayName }) => {
    const profile = { password, emailVerified: true, disabled: false, ...(displayName ? { displayName } : {}) };
    try {
      const existing = await auth.getUserByEmail(email);
      await auth.updateUser(existing.uid, profile);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'auth/user-not-found') throw error;
      await auth.createUser({ email, ...profile });
    }
  };
}

/** Waits until the Auth emulator answers, so that seeding does not race `firebase emulators:start`. */
export async function waitForAuthEmulator(host: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}
