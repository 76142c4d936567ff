import type { VerifiedIdentity } from '../db/staff-identity';

export type { VerifiedIdentity };

/**
 * Verifies a Firebase ID token. The app depends on this signature only, so tests inject a fake and the real
 * implementation (firebase-verifier.ts) stays a thin wrapper over firebase-admin.
 */
export type VerifyIdToken = (idToken: string) => Promise<VerifiedIdentity>;

/** Thrown by a VerifyIdToken for any token it does not accept; `expired` separates a stale token from a bad one. */
export class IdTokenRejected extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message);
    this.name = 'IdTokenRejected';
  }
}
