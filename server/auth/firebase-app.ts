import { getApps, initializeApp, type App } from 'firebase-admin/app';

/**
 * firebase-admin switches to the Auth emulator whenever FIREBASE_AUTH_EMULATOR_HOST is set, and then accepts unsigned
 * tokens naming any e-mail. The configuration refuses that combination with NODE_ENV=production (server/config.ts);
 * this is the same rule where firebase-admin is touched, for any entry point that skips the configuration.
 */
export function assertNoEmulatorInProduction(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV === 'production' && env.FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error(
      'FIREBASE_AUTH_EMULATOR_HOST is set with NODE_ENV=production: the emulator accepts unsigned tokens. Unset it.',
    );
  }
}

/**
 * One firebase-admin app per project id, configured with the project id only. ID tokens are verified against
 * Google's public keys (or, with FIREBASE_AUTH_EMULATOR_HOST set, accepted unsigned from the emulator); the revocation
 * check looks the account up with the credentials firebase-admin finds in the environment (Application Default
 * Credentials on Google Cloud, GOOGLE_APPLICATION_CREDENTIALS elsewhere).
 */
export function firebaseApp(projectId: string): App {
  assertNoEmulatorInProduction();
  const name = `lpa-${projectId}`;
  return getApps().find((app) => app.name === name) ?? initializeApp({ projectId }, name);
}
