import { getAuth } from 'firebase-admin/auth';
import type { CreateIdentity } from '../db/staff-identity';
import { firebaseApp } from './firebase-app';

/** The part of firebase-admin's Auth that seeding uses; tests pass a model of it. */
export interface IdentityAccounts {
  getUserByEmail(email: string): Promise<{ uid: string; displayName?: string | undefined; emailVerified: boolean }>;
  createUser(account: {
    email: string;
    password: string;
    displayName?: string;
    emailVerified: boolean;
  }): Promise<{ uid: string }>;
  updateUser(
    uid: string,
    changes: { password?: string; displayName?: string; emailVerified?: boolean },
  ): Promise<unknown>;
}

/**
 * Whether a password signs in to an account: 'unknown' when the provider will not say (a disabled account is refused
 * before its password is compared). The admin API cannot read passwords back, so seeding asks this instead.
 */
export type PasswordCheck = (email: string, password: string) => Promise<'matches' | 'differs' | 'unknown'>;

function isUserNotFound(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'auth/user-not-found';
}

/**
 * Creates a seeded sign-in account, or brings an existing one in line with the seed by changing only what differs:
 * a re-seed must sign nobody out. Setting a password revokes the account's tokens, so it is set only when the seeded
 * one no longer signs in; `disabled` is never written, so an account disabled by hand stays disabled. Seeded
 * accounts are e-mail-verified (unverified identities get no permissions). Returns the account's uid, which the seed
 * links to the staff row.
 */
export function identitySeeder(accounts: IdentityAccounts, checkPassword: PasswordCheck): CreateIdentity {
  return async ({ email, password, displayName }) => {
    let existing;
    try {
      existing = await accounts.getUserByEmail(email);
    } catch (error) {
      if (!isUserNotFound(error)) throw error;
      const created = await accounts.createUser({
        email,
        password,
        emailVerified: true,
        ...(displayName ? { displayName } : {}),
      });
      return { uid: created.uid };
    }
    const changes: { password?: string; displayName?: string; emailVerified?: boolean } = {};
    if (displayName && existing.displayName !== displayName) changes.displayName = displayName;
    if (!existing.emailVerified) changes.emailVerified = true;
    if ((await checkPassword(email, password)) === 'differs') changes.password = password;
    if (Object.keys(changes).length > 0) await accounts.updateUser(existing.uid, changes);
    return { uid: existing.uid };
  };
}

/** Answers of the emulator's password sign-in that mean "this is not the password". */
const WRONG_PASSWORD = ['INVALID_PASSWORD', 'INVALID_LOGIN_CREDENTIALS'];

/** The password check against the Auth emulator's REST sign-in (which accepts any API key). */
export function emulatorPasswordCheck(emulatorHost: string): PasswordCheck {
  return async (email, password) => {
    const response = await fetch(
      `http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=lpa-seed`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password, returnSecureToken: false }),
        signal: AbortSignal.timeout(10_000),
      },
    );
    if (response.ok) return 'matches';
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
    const message = body.error?.message ?? '';
    if (WRONG_PASSWORD.some((code) => message.startsWith(code))) return 'differs';
    if (message.startsWith('USER_DISABLED')) return 'unknown';
    throw new Error(`The Auth emulator refused the password check for ${email}: ${message || response.status}`);
  };
}

/**
 * Seeds accounts into the Firebase Auth emulator. It refuses to run without FIREBASE_AUTH_EMULATOR_HOST, so
 * development seeds can never reach a real Firebase project.
 */
export function createEmulatorIdentities(projectId: string): CreateIdentity {
  const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!emulatorHost) {
    throw new Error('Seeding sign-in accounts needs the Auth emulator: set FIREBASE_AUTH_EMULATOR_HOST.');
  }
  return identitySeeder(getAuth(firebaseApp(projectId)), emulatorPasswordCheck(emulatorHost));
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
