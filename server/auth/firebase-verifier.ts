import { getAuth, type DecodedIdToken } from 'firebase-admin/auth';
import { firebaseApp } from './firebase-app';
import { IdTokenRejected, type VerifyIdToken } from './id-token';

/** The part of firebase-admin's Auth the verifier uses; tests pass a model (server/testing/fake-identity-provider.ts). */
export interface IdTokenAuth {
  verifyIdToken(idToken: string, checkRevoked?: boolean): Promise<DecodedIdToken>;
}

/**
 * What firebase-admin says about a token it refuses. Anything else (no credentials for the revocation lookup, Google's
 * keys or the emulator unreachable) is a fault of the server's setup: it must surface as a logged 500, not sign every
 * user out with a 401.
 */
const REFUSALS: Record<string, string> = {
  'auth/argument-error': 'The sign-in token is not valid.',
  'auth/invalid-argument': 'The sign-in token is not valid.',
  'auth/invalid-id-token': 'The sign-in token is not valid.',
  'auth/id-token-revoked': 'This sign-in has been revoked. Please sign in again.',
  'auth/user-disabled': 'This sign-in account has been disabled.',
  'auth/user-not-found': 'This sign-in account no longer exists.',
};

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Verifies ID tokens through firebase-admin, always with the revocation check: it asks the identity provider for the
 * account on every call, so a revoked, disabled or deleted account loses access on its next request rather than when
 * its ID token expires (up to an hour). Never throws anything but IdTokenRejected for a bad token.
 */
export function verifierOver(auth: IdTokenAuth): VerifyIdToken {
  return async (idToken) => {
    let decoded: DecodedIdToken;
    try {
      decoded = await auth.verifyIdToken(idToken, true);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'auth/id-token-expired') throw new IdTokenRejected('The sign-in token has expired.', true);
      const refusal = code === undefined ? undefined : REFUSALS[code];
      if (refusal) throw new IdTokenRejected(refusal);
      throw error;
    }
    if (!decoded.email) throw new IdTokenRejected('The sign-in token carries no e-mail address.');
    return { email: decoded.email.toLowerCase(), uid: decoded.uid, emailVerified: decoded.email_verified === true };
  };
}

/** The verifier for FIREBASE_PROJECT_ID (the Auth emulator when FIREBASE_AUTH_EMULATOR_HOST is set). */
export function createFirebaseVerifier(projectId: string): VerifyIdToken {
  return verifierOver(getAuth(firebaseApp(projectId)));
}
