import { sendPasswordResetEmail, signInWithEmailAndPassword, validatePassword, type Auth } from 'firebase/auth';
import type { SessionServices } from './session-services';
import { signInErrorMessage } from './sign-in-errors';

const DEFAULT_PASSWORD_MIN_LENGTH = 6;

/** The session services of the login screen, backed by Firebase Auth. `logout` is the auth machine's. */
export function createFirebaseSessionServices(auth: Auth, logout: () => void): SessionServices {
  let minLength: Promise<number> | undefined;
  return {
    async signIn(email, password) {
      try {
        await signInWithEmailAndPassword(auth, email, password);
      } catch (error) {
        throw new Error(signInErrorMessage(error), { cause: error });
      }
    },
    async sendPasswordReset(email) {
      try {
        await sendPasswordResetEmail(auth, email);
      } catch (error) {
        // Saying whether an address has an account would let anyone probe for staff e-mails.
        const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
        if (code === 'auth/user-not-found') return;
        throw new Error(signInErrorMessage(error), { cause: error });
      }
    },
    passwordMinLength() {
      // The identity provider's password policy (spec §5); projects without one, and the emulator, use 6.
      minLength ??= validatePassword(auth, '')
        .then((status) => status.passwordPolicy.customStrengthOptions.minPasswordLength ?? DEFAULT_PASSWORD_MIN_LENGTH)
        .catch(() => DEFAULT_PASSWORD_MIN_LENGTH);
      return minLength;
    },
    logout,
  };
}
