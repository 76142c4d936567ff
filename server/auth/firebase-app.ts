import { getApps, initializeApp, type App } from 'firebase-admin/app';

/**
 * One firebase-admin app per project id. Only the project id is configured: ID tokens are verified against
 * Google's public keys (or, with FIREBASE_AUTH_EMULATOR_HOST set, accepted unsigned from the emulator), which
 * needs no service-account credentials.
 */
export function firebaseApp(projectId: string): App {
  const name = `lpa-${projectId}`;
  return getApps().find((app) => app.name === name) ?? initializeApp({ projectId }, name);
}
