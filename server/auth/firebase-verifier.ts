import { getAuth } from 'firebase-admin/auth';
import { firebaseApp } from './firebase-app';
import { IdTokenRejected, type VerifyIdToken } from './id-token';

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Verifies Firebase ID tokens with firebase-admin; never throws anything but IdTokenRejected for a bad token. */
export function createFirebaseVerifier(projectId: string): VerifyIdToken {
  const auth = getAuth(firebaseApp(projectId));
  return async (idToken) => {
    let decoded;
    try {
      decoded = await auth.verifyIdToken(idToken);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'auth/id-token-expired') throw new IdTokenRejected('The sign-in token has expired.', true);
      // Whatever else firebase-admin says about the token (argument-error, invalid-id-token, revoked): a bad token.
      if (code?.startsWith('auth/')) throw new IdTokenRejected('The sign-in token is not valid.');
      throw error;
    }
    if (!decoded.email) throw new IdTokenRejected('The sign-in token carries no e-mail address.');
    return { email: decoded.email.toLowerCase(), uid: decoded.uid };
  };
}
