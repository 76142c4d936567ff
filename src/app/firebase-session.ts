import type { FirebaseAuth } from './firebase';
import type { SessionServices } from '../routes/-shared/session-services';
import { signInErrorMessage } from './sign-in-errors';

const DEFAULT_PASSWORD_MIN_LENGTH = 6;

/** How the login screen reaches Firebase Auth, which is loaded lazily (./firebase.ts). */
export interface FirebaseLoader {
  /** Loads Firebase now unless it has loaded: a sign-in may come before the background load has finished. */
  load(): Promise<FirebaseAuth>;
  /** Settles once Firebase has loaded, without loading it. */
  loaded(): Promise<FirebaseAuth>;
}

/** The session services of the login screen, backed by Firebase Auth. `logout` is the auth machine's. */
export function createFirebaseSessionServices(firebase: FirebaseLoader, logout: () => void): SessionServices {
  let minLength: Promise<number> | undefined;
  return {
    async signIn(email, password) {
      try {
        const { auth, signInWithEmailAndPassword } = await firebase.load();
        await signInWithEmailAndPassword(auth, email, password);
      } catch (error) {
        throw new Error(signInErrorMessage(error), { cause: error });
      }
    },
    async sendPasswordReset(email) {
      try {
        const { auth, sendPasswordResetEmail } = await firebase.load();
        await sendPasswordResetEmail(auth, email);
      } catch (error) {
        // Saying whether an address has an account would let anyone probe for staff e-mails.
        const code = typeof error === 'object' && error && 'code' in error ? String(error.code) : '';
        if (code === 'auth/user-not-found') return;
        throw new Error(signInErrorMessage(error), { cause: error });
      }
    },
    passwordMinLength() {
      // The identity provider's password policy (spec §5); projects without one, and the emulator, use 6. The login
      // form asks as it first renders: the answer waits for the background load rather than starting it then.
      minLength ??= firebase
        .loaded()
        .then(({ auth, validatePassword }) => validatePassword(auth, ''))
        .then((status) => status.passwordPolicy.customStrengthOptions.minPasswordLength ?? DEFAULT_PASSWORD_MIN_LENGTH)
        .catch(() => DEFAULT_PASSWORD_MIN_LENGTH);
      return minLength;
    },
    logout,
  };
}
