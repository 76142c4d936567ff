import { beforeEach, describe, expect, it } from 'vitest';
import { FEATURE_CODES } from '../../src/permissions/features';
import type { UserPermissions } from '../../src/permissions/permissions-object';
import { demoAccount } from '../db/seed/demo-accounts';
import { idTokenFor, TEST_SESSION_TTL_SECONDS } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

type PermissionsData = { userData: UserPermissions };

const ALL_LOCATIONS = [1, 2, 3, 4, 5, 6];
const FLAG_NAMES = [
  'hasEnforcementPermission',
  'hasRateSettingsPermission',
  'hasPromoCodePermission',
  'hasRefundPortalPermission',
  'hasUserPermission',
  'hasUserRolePermission',
  'hasSettledDashboardPermission',
  'hasRealTimeDashboardPermission',
  'hasLocationsPermissions',
] as const;

describe.each(BACKENDS)('auth endpoints on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  beforeEach(() => {
    api().clock.now = new Date('2026-03-02T15:00:00Z');
  });

  describe('POST /auth/permissions', () => {
    it('gives the superuser every flag and every location', async () => {
      const userData = await api().signIn(demoAccount('superuser').email);
      expect(userData.superuser).toBe(true);
      for (const flag of FLAG_NAMES) expect(userData[flag], flag).toBe(true);
      expect(userData.featureLevelLocations.default).toEqual(ALL_LOCATIONS);
      expect(userData.featureLevelLocations.enforcementLocations.map((l) => l.location_id)).toEqual(ALL_LOCATIONS);
      expect(userData.featureLevelLocations.canAddLocation).toBe(true);
    });

    it('gives the admin every level of every feature everywhere, without superuser', async () => {
      const userData = await api().signIn(demoAccount('admin').email);
      expect(userData.superuser).toBe(false);
      for (const flag of FLAG_NAMES) expect(userData[flag], flag).toBe(true);
      expect(userData.promoCodePermissions).toEqual({ canEdit: true, canAdd: true });
      expect(userData.rateSettingsPermissions).toEqual({ canEdit: true });
      for (const code of FEATURE_CODES) {
        expect(userData.featureLevelLocations.features[code], code).toEqual({
          view: ALL_LOCATIONS,
          add: ALL_LOCATIONS,
          edit: ALL_LOCATIONS,
          delete: ALL_LOCATIONS,
        });
      }
    });

    it('limits the officer to enforcement view and add (citations) at locations 1 and 2', async () => {
      const userData = await api().signIn(demoAccount('officer').email);
      expect(FLAG_NAMES.filter((flag) => userData[flag])).toEqual(['hasEnforcementPermission']);
      expect(userData.featureLevelLocations.features.e).toEqual({ view: [1, 2], add: [1, 2], edit: [], delete: [] });
      expect(userData.featureLevelLocations.enforcementLocations).toEqual([
        { location_id: 1, name: 'Union Station Garage', time_zone: 'America/Chicago' },
        { location_id: 2, name: 'Navy Pier East Lot', time_zone: 'America/Chicago' },
      ]);
      expect(userData.featureLevelLocations.default).toEqual([1, 2]);
      expect(userData.featureLevelLocations.canAddLocation).toBe(false);
    });

    it('gives finance the dashboards and the refund portal only', async () => {
      const userData = await api().signIn(demoAccount('finance').email);
      expect(FLAG_NAMES.filter((flag) => userData[flag]).sort()).toEqual(
        ['hasRealTimeDashboardPermission', 'hasRefundPortalPermission', 'hasSettledDashboardPermission'].sort(),
      );
      expect(userData.featureLevelLocations.features.rp.view).toEqual(ALL_LOCATIONS);
      expect(userData.featureLevelLocations.features.rp.edit).toEqual([]);
      expect(userData.featureLevelLocations.enforcementLocations).toEqual([]);
    });

    it('lets promo view and add promo codes at location 3, not edit them', async () => {
      const userData = await api().signIn(demoAccount('promo').email);
      expect(FLAG_NAMES.filter((flag) => userData[flag])).toEqual(['hasPromoCodePermission']);
      expect(userData.promoCodePermissions).toEqual({ canEdit: false, canAdd: true });
      expect(userData.featureLevelLocations.features.pc).toEqual({ view: [3], add: [3], edit: [], delete: [] });
    });

    it('signs in the account without permissions, with nothing allowed', async () => {
      const userData = await api().signIn(demoAccount('noaccess').email);
      expect(FLAG_NAMES.filter((flag) => userData[flag])).toEqual([]);
      expect(userData.featureLevelLocations.default).toEqual([]);
    });

    it('issues a session token the API accepts and records the sign-in time', async () => {
      const { token, email } = await api().signIn('officer@example.com');
      expect(email).toBe('officer@example.com');
      const check = await api().call('GET', `/validate-user-login/?token=${token}`);
      expect(check.status).toBe(200);
      const { rows } = await context.database.db.query<{ last_sign_in_at: Date }>(
        "SELECT last_sign_in_at FROM users WHERE email = 'officer@example.com'",
      );
      expect(rows[0]?.last_sign_in_at.toISOString()).toBe('2026-03-02T15:00:00.000Z');
    });

    it('compares e-mails case-insensitively', async () => {
      const result = await api().call<PermissionsData>('POST', '/auth/permissions', {
        idToken: idTokenFor('Admin@Example.com'),
        json: { email: 'ADMIN@example.COM' },
      });
      expect(result.status).toBe(200);
      expect(result.body.data?.userData.email).toBe('admin@example.com');
    });

    it('refuses an e-mail other than the signed-in one', async () => {
      const result = await api().call('POST', '/auth/permissions', {
        idToken: idTokenFor('officer@example.com'),
        json: { email: 'admin@example.com' },
      });
      expect(result.status).toBe(403);
      expect(result.body).toEqual({ success: false, message: expect.stringMatching(/does not match/) });
    });

    it('refuses a Firebase account that is not staff', async () => {
      const result = await api().call('POST', '/auth/permissions', {
        idToken: idTokenFor('stranger@example.com'),
        json: { email: 'stranger@example.com' },
      });
      expect(result.status).toBe(403);
      expect(result.body.message).toBe('No staff account for this e-mail.');
    });

    it('refuses a disabled staff account', async () => {
      const { db } = context.database;
      await db.query("UPDATE users SET status = 'disabled' WHERE email = 'finance@example.com'");
      try {
        const result = await api().call('POST', '/auth/permissions', {
          idToken: idTokenFor('finance@example.com'),
          json: { email: 'finance@example.com' },
        });
        expect(result.status).toBe(403);
        expect(result.body.message).toMatch(/disabled/);
      } finally {
        await db.query("UPDATE users SET status = 'active' WHERE email = 'finance@example.com'");
      }
    });

    it.each([
      ['no Authorization header', undefined, 'NoTokenProvided'],
      ['an empty bearer', '', 'NoTokenProvided'],
      ['a garbage ID token', 'garbage', 'InvalidToken'],
      ['an expired ID token', 'expired:admin@example.com', 'TokenExpired'],
    ])('answers 401 for %s', async (_case, idToken, code) => {
      const result = await api().call('POST', '/auth/permissions', { idToken, json: { email: 'admin@example.com' } });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ success: false, error: code, message: expect.any(String) });
      expect(result.body.message).not.toBe('');
    });

    it('answers 401 InvalidToken for a non-bearer Authorization header', async () => {
      const result = await api().call('POST', '/auth/permissions', {
        headers: { Authorization: 'Basic YWRtaW46cGFzcw==' },
        json: { email: 'admin@example.com' },
      });
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('InvalidToken');
    });

    it.each([
      ['a missing e-mail', { json: {} }, /^Invalid request body: email is required$/],
      [
        'an invalid e-mail',
        { json: { email: 'not-an-email' } },
        /^Invalid request body: email: Invalid email address$/,
      ],
      [
        'a number for the e-mail',
        { json: { email: 42 } },
        /^Invalid request body: email: Invalid input: expected string, received number$/,
      ],
      ['an array body', { json: ['admin@example.com'] }, /request body/],
      ['malformed JSON', { rawBody: '{"email": ', headers: { 'Content-Type': 'application/json' } }, /JSON/],
      ['an empty JSON body', { rawBody: '', headers: { 'Content-Type': 'application/json' } }, /JSON/],
    ])('answers 400 with a message for %s', async (_case, options, message) => {
      const result = await api().call('POST', '/auth/permissions', {
        idToken: idTokenFor('admin@example.com'),
        ...options,
      });
      expect(result.status).toBe(400);
      expect(result.body.success).toBe(false);
      expect(result.body.message).toMatch(message);
    });

    it('answers 415, not 500, for a body that is not JSON', async () => {
      const result = await api().call('POST', '/auth/permissions', {
        idToken: idTokenFor('admin@example.com'),
        rawBody: 'email=admin@example.com',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(result.status).toBe(415);
      expect(result.body.success).toBe(false);
    });
  });

  describe('GET /validate-user-login/', () => {
    it('confirms a valid token with its e-mail and expiry', async () => {
      const { token } = await api().signIn('promo@example.com');
      const result = await api().call('GET', `/validate-user-login/?token=${encodeURIComponent(token)}`);
      expect(result.status).toBe(200);
      const expiresAt = new Date(api().clock.now.getTime() + TEST_SESSION_TTL_SECONDS * 1000).toISOString();
      expect(result.body).toEqual({ success: true, data: { valid: true, email: 'promo@example.com', expiresAt } });
    });

    it('reports TokenExpired once the session has run out', async () => {
      const { token } = await api().signIn('promo@example.com');
      api().clock.now = new Date(api().clock.now.getTime() + (TEST_SESSION_TTL_SECONDS + 1) * 1000);
      const result = await api().call('GET', `/validate-user-login/?token=${token}`);
      expect(result.status).toBe(401);
      expect(result.body.error).toBe('TokenExpired');
    });

    it('reports InvalidToken for garbage and for a token signed with another key', async () => {
      const foreign = await api()
        .sessions(new TextEncoder().encode('another-secret-another-secret-0123456789'))
        .issue('admin@example.com');
      for (const token of ['garbage', 'a.b.c', foreign.token]) {
        const result = await api().call('GET', `/validate-user-login/?token=${encodeURIComponent(token)}`);
        expect(result.status, token).toBe(401);
        expect(result.body.error, token).toBe('InvalidToken');
      }
    });

    it.each(['/validate-user-login/', '/validate-user-login/?token='])(
      'reports NoTokenProvided for %s',
      async (path) => {
        const result = await api().call('GET', path);
        expect(result.status).toBe(401);
        expect(result.body.error).toBe('NoTokenProvided');
      },
    );
  });

  describe('GET /load-permissions/', () => {
    it('returns the permissions with the same session token', async () => {
      const { token } = await api().signIn('officer@example.com');
      const result = await api().call<PermissionsData>('GET', '/load-permissions/', {
        idToken: idTokenFor('officer@example.com'),
        session: token,
      });
      expect(result.status).toBe(200);
      expect(result.body.data?.userData.token).toBe(token);
      expect(result.body.data?.userData.featureLevelLocations.features.e.view).toEqual([1, 2]);
    });

    it('reads permissions fresh from the database', async () => {
      const { db } = context.database;
      const { token } = await api().signIn('officer@example.com');
      const grant = `INSERT INTO role_permissions (role_id, feature, level, location_id)
        SELECT role_id, 'e', 'view', 4 FROM users WHERE email = 'officer@example.com'`;
      await db.query(grant);
      try {
        const result = await api().call<PermissionsData>('GET', '/load-permissions/', {
          idToken: idTokenFor('officer@example.com'),
          session: token,
        });
        expect(result.body.data?.userData.featureLevelLocations.features.e.view).toEqual([1, 2, 4]);
      } finally {
        await db.query(
          `DELETE FROM role_permissions WHERE feature = 'e' AND location_id = 4
             AND role_id = (SELECT role_id FROM users WHERE email = 'officer@example.com')`,
        );
      }
    });

    it('refuses a session once the account is disabled', async () => {
      const { db } = context.database;
      const { token } = await api().signIn('promo@example.com');
      await db.query("UPDATE users SET status = 'disabled' WHERE email = 'promo@example.com'");
      try {
        const result = await api().call('GET', '/load-permissions/', {
          idToken: idTokenFor('promo@example.com'),
          session: token,
        });
        expect(result.status).toBe(403);
        expect(result.body.message).toMatch(/disabled/);
      } finally {
        await db.query("UPDATE users SET status = 'active' WHERE email = 'promo@example.com'");
      }
    });

    it('refuses every kind of bad session with its code', async () => {
      const { token } = await api().signIn('admin@example.com');
      const idToken = idTokenFor('admin@example.com');
      const foreign = await api()
        .sessions(new TextEncoder().encode('another-secret-another-secret-0123456789'))
        .issue('admin@example.com');
      const officer = await api().signIn('officer@example.com');
      const cases: [string, { idToken?: string; session?: string }, string][] = [
        ['no headers', {}, 'NoTokenProvided'],
        ['no session token', { idToken }, 'NoTokenProvided'],
        ['no ID token', { session: token }, 'NoTokenProvided'],
        ['a garbage session token', { idToken, session: 'garbage' }, 'InvalidToken'],
        ['a garbage ID token', { idToken: 'garbage', session: token }, 'InvalidToken'],
        ['a session token signed with another key', { idToken, session: foreign.token }, 'InvalidToken'],
        ["another user's session token", { idToken, session: officer.token }, 'InvalidToken'],
        ['an expired ID token', { idToken: 'expired:admin@example.com', session: token }, 'TokenExpired'],
      ];
      for (const [name, headers, code] of cases) {
        const result = await api().call('GET', '/load-permissions/', headers);
        expect(result.status, name).toBe(401);
        expect(result.body.error, name).toBe(code);
      }
      api().clock.now = new Date(api().clock.now.getTime() + (TEST_SESSION_TTL_SECONDS + 60) * 1000);
      const expired = await api().call('GET', '/load-permissions/', { idToken, session: token });
      expect(expired.status).toBe(401);
      expect(expired.body.error).toBe('TokenExpired');
    });
  });
});
