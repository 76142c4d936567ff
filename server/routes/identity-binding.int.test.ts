import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserPermissions } from '../../src/permissions/permissions-object';
import { identitySeeder } from '../auth/firebase-identities';
import { verifierOver } from '../auth/firebase-verifier';
import { migrate } from '../db/migrate';
import { applyUserSeed } from '../db/seed/apply-user-seed';
import { demoSeedUser, demoAccount } from '../db/seed/demo-accounts';
import { seedDemoLocations } from '../db/seed/demo-seed';
import { findStaffByEmail } from '../db/staff';
import { relinkStaffIdentity, RelinkError } from '../db/staff-identity';
import { relinkAsAdministrator } from '../cli/relink-command';
import { EMAIL_NOT_VERIFIED, LINKED_TO_ANOTHER_IDENTITY, NO_STAFF_ACCOUNT } from '../http/staff-auth';
import { FakeIdentityProvider } from '../testing/fake-identity-provider';
import { createTestApi } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type TestDatabase } from '../testing/test-database';

const PASSWORD = 'correct-horse';
const officer = demoAccount('officer');
const admin = demoAccount('admin');

describe.each(BACKENDS)('identity binding on %s', (backend) => {
  let database: TestDatabase;
  let provider: FakeIdentityProvider;
  let api: ReturnType<typeof createTestApi>;

  beforeAll(async () => {
    database = await openTestDatabase(backend);
    await migrate(database.db);
    await seedDemoLocations(database.db);
    provider = new FakeIdentityProvider();
    // The officer and the admin have signed in before: their rows are bound to their accounts.
    await applyUserSeed(database.db, [demoSeedUser(officer), demoSeedUser(admin)], {
      createIdentity: identitySeeder(provider, provider.checkPassword),
    });
    api = createTestApi(database.db, { verifyIdToken: verifierOver(provider) });
  });
  afterAll(async () => {
    expect(api?.serverErrors ?? []).toEqual([]);
    await database?.dispose();
  });

  /** An invitation: a staff row for the e-mail, no account bound yet. */
  const invite = (email: string) =>
    applyUserSeed(database.db, [{ email, password: PASSWORD, permissions: { e: { v: [1] } } }]);

  const lookup = (idToken: string, email: string) =>
    api.call<{ userData: UserPermissions }>('POST', '/auth/permissions', { idToken, json: { email } });

  const loadPermissions = (idToken: string, session: string) =>
    api.call('GET', '/load-permissions/', { idToken, session });

  async function auditRows(email: string) {
    const { rows } = await database.db.query<{
      action: string;
      actor_email: string | null;
      before: unknown;
      after: unknown;
    }>(
      `SELECT a.action, a.actor_email, a.before, a.after FROM audit_log a
        WHERE a.entity = 'user' AND a.entity_id = (SELECT user_id::text FROM users WHERE email = $1)
        ORDER BY a.audit_id`,
      [email],
    );
    return rows;
  }

  it('binds an invited row to the first verified sign-in, and not to an unverified one', async () => {
    await invite('invited@example.com');
    const { uid } = provider.signUp('invited@example.com', PASSWORD);

    const unverified = await lookup(provider.signIn('invited@example.com', PASSWORD), 'invited@example.com');
    expect(unverified.status).toBe(403);
    expect(unverified.body.message).toBe(EMAIL_NOT_VERIFIED);
    expect((await findStaffByEmail(database.db, 'invited@example.com'))?.identityUid).toBeNull();

    provider.verifyEmail(uid);
    const verified = await lookup(provider.signIn('invited@example.com', PASSWORD), 'invited@example.com');
    expect(verified.status).toBe(200);
    expect(verified.body.data?.userData.featureLevelLocations.features.e.view).toEqual([1]);
    expect((await findStaffByEmail(database.db, 'invited@example.com'))?.identityUid).toBe(uid);
    expect(await auditRows('invited@example.com')).toEqual([
      { action: 'claim-identity', actor_email: null, before: { identity_uid: null }, after: { identity_uid: uid } },
    ]);
  });

  it('gives an account re-created with a staff e-mail nothing, and no use of the old session', async () => {
    const original = provider.signIn(officer.email, officer.password);
    const session = (await lookup(original, officer.email)).body.data!.userData.token;
    expect((await loadPermissions(original, session)).status).toBe(200);

    // The probe: the officer's account is deleted and someone signs up again with the same e-mail.
    provider.deleteUser(provider.state(officer.email)!.uid);
    const { uid: newcomerUid } = provider.signUp(officer.email, 'newcomer-pass');
    const newcomer = provider.signIn(officer.email, 'newcomer-pass');

    const withOldSession = await loadPermissions(newcomer, session);
    expect(withOldSession.status).toBe(401);
    expect(withOldSession.body.error).toBe('InvalidToken');
    expect((await lookup(newcomer, officer.email)).body.message).toBe(EMAIL_NOT_VERIFIED);

    // Even with the e-mail verified, the row stays with the account it was bound to.
    provider.verifyEmail(newcomerUid);
    const verifiedNewcomer = provider.signIn(officer.email, 'newcomer-pass');
    const refused = await lookup(verifiedNewcomer, officer.email);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(LINKED_TO_ANOTHER_IDENTITY);
    expect((await loadPermissions(verifiedNewcomer, session)).status).toBe(401);
  });

  it('lets an administrator re-link the row, audited; only the new account is that staff member afterwards', async () => {
    const email = 'relinked@example.com';
    await invite(email);
    const { uid: oldUid } = provider.signUp(email, PASSWORD);
    provider.verifyEmail(oldUid);
    const oldToken = provider.signIn(email, PASSWORD);
    const oldSession = (await lookup(oldToken, email)).body.data!.userData.token;

    // The person now signs in with another account (say, their company's single sign-on, another address).
    const newEmail = 'relinked.sso@example.com';
    const { uid: newUid } = provider.signUp(newEmail, 'new-pass');
    provider.verifyEmail(newUid);
    const newToken = provider.signIn(newEmail, 'new-pass');
    expect((await lookup(newToken, newEmail)).body.message).toBe(NO_STAFF_ACCOUNT);

    // An administrator, having checked who it is, re-links the row.
    const adminRow = (await findStaffByEmail(database.db, admin.email))!;
    const actor = { userId: adminRow.userId, email: adminRow.email };
    expect(await relinkStaffIdentity(database.db, { email, uid: newUid, actor, now: new Date() })).toEqual({
      previousUid: oldUid,
    });
    const relinked = await lookup(newToken, newEmail);
    expect(relinked.status).toBe(200);
    expect(relinked.body.data?.userData.featureLevelLocations.features.e.view).toEqual([1]);
    expect((await auditRows(email)).at(-1)).toEqual({
      action: 'relink-identity',
      actor_email: admin.email,
      before: { identity_uid: oldUid },
      after: { identity_uid: newUid },
    });

    // The previous account still exists, and its session still verifies, but it is nobody's staff account now.
    const previous = await loadPermissions(oldToken, oldSession);
    expect(previous.status).toBe(403);
    expect(previous.body.message).toBe(NO_STAFF_ACCOUNT);
    expect((await lookup(provider.signIn(email, PASSWORD), email)).body.message).toBe(LINKED_TO_ANOTHER_IDENTITY);
  });

  it('unbinding lets the next verified sign-in claim the row again', async () => {
    const email = 'unbound@example.com';
    await invite(email);
    const first = provider.signUp(email, PASSWORD);
    provider.verifyEmail(first.uid);
    expect((await lookup(provider.signIn(email, PASSWORD), email)).status).toBe(200);

    const second = provider.signUp('unbound-second@example.com', PASSWORD);
    await relinkStaffIdentity(database.db, { email, uid: null, actor: null, now: new Date() });
    expect((await findStaffByEmail(database.db, email))?.identityUid).toBeNull();
    expect((await lookup(provider.signIn(email, PASSWORD), email)).status).toBe(200);
    expect((await findStaffByEmail(database.db, email))?.identityUid).toBe(first.uid);
    expect(second.uid).not.toBe(first.uid);
  });

  it('refuses to re-link an unknown e-mail, or to an account bound to someone else', async () => {
    const now = new Date();
    await expect(
      relinkStaffIdentity(database.db, { email: 'nobody@example.com', uid: 'x', actor: null, now }),
    ).rejects.toThrow(RelinkError);
    const adminUid = (await findStaffByEmail(database.db, admin.email))!.identityUid!;
    await expect(
      relinkStaffIdentity(database.db, { email: 'invited@example.com', uid: adminUid, actor: null, now }),
    ).rejects.toThrow(/already linked to admin@example.com/);
  });

  it('refuses a bound account whose e-mail is no longer verified, on the lookup and on every call', async () => {
    const adminUid = (await findStaffByEmail(database.db, admin.email))!.identityUid!;
    const verifiedToken = provider.signIn(admin.email, admin.password);
    const session = (await lookup(verifiedToken, admin.email)).body.data!.userData.token;
    // An e-mail change at the provider resets verification; tokens issued from then on say so.
    await provider.updateUser(adminUid, { emailVerified: false });
    const unverifiedToken = provider.signIn(admin.email, admin.password);
    expect((await lookup(unverifiedToken, admin.email)).body.message).toBe(EMAIL_NOT_VERIFIED);
    const call = await loadPermissions(unverifiedToken, session);
    expect(call.status).toBe(403);
    expect(call.body.message).toBe(EMAIL_NOT_VERIFIED);
    await provider.updateUser(adminUid, { emailVerified: true });
  });

  it('runs the relink command only for an active staff member allowed to edit users', async () => {
    const email = 'commanded@example.com';
    await invite(email);
    const { uid } = provider.signUp(email, PASSWORD);
    const findAccount = (accountEmail: string) => provider.getUserByEmail(accountEmail);
    const asOfficer = { email, target: { account: email }, by: officer.email };
    await expect(relinkAsAdministrator(database.db, asOfficer, findAccount)).rejects.toThrow(
      /not .* allowed to edit users/,
    );
    expect((await findStaffByEmail(database.db, email))?.identityUid).toBeNull();

    const message = await relinkAsAdministrator(database.db, { ...asOfficer, by: admin.email }, findAccount);
    expect(message).toMatch(/not verified yet/);
    expect((await findStaffByEmail(database.db, email))?.identityUid).toBe(uid);
    expect((await auditRows(email)).at(-1)).toMatchObject({ action: 'relink-identity', actor_email: admin.email });
  });

  it('answers a session of an account bound to no staff row with 403', async () => {
    const { uid } = provider.signUp('outsider@example.com', PASSWORD);
    provider.verifyEmail(uid);
    const token = provider.signIn('outsider@example.com', PASSWORD);
    const session = await api.sessions().issue({ email: 'outsider@example.com', uid });
    const result = await loadPermissions(token, session.token);
    expect(result.status).toBe(403);
    expect(result.body.message).toBe(NO_STAFF_ACCOUNT);
  });
});
