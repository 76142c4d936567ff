import type { AllLocations } from '../../../src/permissions/all-locations';
import { FEATURE_CODES, type PermissionRecordInput } from '../../../src/permissions/features';
import { DEMO_LOCATION_IDS } from './demo-locations';

/**
 * The demo staff accounts: one per kind of user the console must handle. The start script and the end-to-end tests
 * import this list, so it is the one place their permissions are written (the README's table repeats it in words).
 */
export const DEMO_PASSWORD = 'lightning-demo';

export type DemoPersona = 'superuser' | 'admin' | 'officer' | 'finance' | 'promo' | 'noaccess';

export interface DemoAccount {
  persona: DemoPersona;
  email: string;
  password: string;
  displayName: string;
  /** The role it holds, named for the job (docs/users-and-roles.md: roles are named templates, not people). */
  role: string;
  /** What the account can do, in one sentence for the README and the login screen's hints. */
  description: string;
  permissions: PermissionRecordInput;
  /** Per feature, the level held at all locations, now and later (so also at a location added later). */
  allLocations?: AllLocations;
}

const everyLocation = [...DEMO_LOCATION_IDS];

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    persona: 'superuser',
    email: 'superuser@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Sam Superuser',
    role: 'Superuser',
    description: 'Superuser: passes every permission check, sees enforcement lite, mailing and database copy.',
    permissions: { su: true },
  },
  {
    persona: 'admin',
    email: 'admin@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Alex Admin',
    role: 'Administrator',
    description:
      'Administrator: delete (so every level) on every feature at all locations, now and later, but not a superuser.',
    permissions: Object.fromEntries(FEATURE_CODES.map((code) => [code, { d: everyLocation }])),
    // A location the admin adds is theirs at once: rates, promo codes, transactions (docs/users-and-roles.md).
    allLocations: Object.fromEntries(FEATURE_CODES.map((code) => [code, 'delete'])) as AllLocations,
  },
  {
    persona: 'officer',
    email: 'officer@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Olivia Officer',
    role: 'Enforcement officer – Chicago',
    description:
      'Enforcement officer: enforcement view and add (searches plates, writes citations) at Union Station Garage (1) and Navy Pier East Lot (2) only.',
    // Add: an officer writes citations at the locations they patrol (issue 38); voiding them is the office's (edit).
    permissions: { e: { v: [1, 2], a: [1, 2] } },
  },
  {
    persona: 'finance',
    email: 'finance@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Frank Finance',
    role: 'Finance',
    description: 'Finance: view of the real-time and settled dashboards and the refund portal at every location.',
    permissions: { rd: { v: everyLocation }, sd: { v: everyLocation }, rp: { v: everyLocation } },
  },
  {
    persona: 'promo',
    email: 'promo@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Priya Promo',
    role: 'Promotions – Seattle',
    description: 'Promotions: view and add promo codes at Pike Place Market Garage (3) only.',
    permissions: { pc: { v: [3], a: [3] } },
  },
  {
    persona: 'noaccess',
    email: 'noaccess@example.com',
    password: DEMO_PASSWORD,
    displayName: 'Nora Noaccess',
    role: 'Staff without access',
    description: 'Signed-in staff member without any permission: sees only the home page.',
    permissions: {},
  },
];

/** The part of a demo account that the seed applies (the seed-users file format). */
export function demoSeedUser({ email, password, displayName, role, permissions, allLocations }: DemoAccount) {
  return { email, password, displayName, role, permissions, ...(allLocations ? { allLocations } : {}) };
}

export function demoAccount(persona: DemoPersona): DemoAccount {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.persona === persona);
  if (!account) throw new Error(`No demo account for persona ${persona}`);
  return account;
}
