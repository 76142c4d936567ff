import { getAuth } from 'firebase-admin/auth';
import { firebaseApp } from './firebase-app';

/**
 * What inviting a staff member asks of the identity provider: a sign-in account for the e-mail and a link where the
 * person sets their password. Tests pass a model of it; the server uses firebase-admin (the Auth emulator locally).
 */
export interface StaffAccounts {
  /**
   * Creates the account (unverified: setting the password through the link confirms the e-mail) and returns its
   * uid, or null when an account with that e-mail existed already (it is not bound then: its first verified
   * sign-in claims the staff row), with the set-password link.
   */
  invite(account: { email: string; displayName: string }): Promise<{ uid: string | null; setPasswordLink: string }>;
  /** Deletes the sign-in account of an invitation taken back (nothing when it is gone already). */
  remove(uid: string): Promise<void>;
}

function isEmailTaken(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'auth/email-already-exists';
}

export function firebaseStaffAccounts(projectId: string): StaffAccounts {
  const auth = getAuth(firebaseApp(projectId));
  return {
    async invite({ email, displayName }) {
      let uid: string | null = null;
      try {
        uid = (await auth.createUser({ email, displayName, emailVerified: false })).uid;
      } catch (error) {
        if (!isEmailTaken(error)) throw error;
      }
      // A password-reset link is the set-password link: it confirms the e-mail too (the emulator marks it verified).
      return { uid, setPasswordLink: await auth.generatePasswordResetLink(email) };
    },
    async remove(uid) {
      try {
        await auth.deleteUser(uid);
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== 'auth/user-not-found') throw error;
      }
    },
  };
}
