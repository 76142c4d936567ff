import type { VerifiedIdentity } from '../auth/id-token';
import type { StaffMember } from '../db/staff';

// What the session middlewares (staff-auth.ts) put on a request, in a module of their own: the first refusals
// (first-refusals.ts) read it and staff-auth.ts calls them, so neither imports the other back (docs/architecture.md).
export type IdentityEnv = { Variables: { identity: VerifiedIdentity } };
export type StaffEnv = { Variables: { identity: VerifiedIdentity; staff: StaffMember; sessionToken: string } };
