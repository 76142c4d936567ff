import { describe, expect, it } from 'vitest';
import { FEATURE_CODES } from '../../../src/permissions/features';
import { hasPermission } from '../../../src/permissions/rules';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, demoAccount, demoSeedUser } from './demo-accounts';
import { DEMO_LOCATION_IDS } from './demo-locations';
import { seedUsersFileSchema } from './user-seed-file';

describe('demo accounts', () => {
  it('are valid seed users with unique e-mails and the shared password', () => {
    const users = seedUsersFileSchema.parse(DEMO_ACCOUNTS.map(demoSeedUser));
    expect(users).toHaveLength(6);
    expect(DEMO_ACCOUNTS.every((account) => account.password === DEMO_PASSWORD)).toBe(true);
    expect(DEMO_PASSWORD).toBe('lightning-demo');
  });

  it('grant what their descriptions promise', () => {
    const record = (persona: Parameters<typeof demoAccount>[0]) =>
      seedUsersFileSchema.element.parse(demoSeedUser(demoAccount(persona))).permissions;
    expect(record('superuser').su).toBe(true);
    for (const code of FEATURE_CODES) {
      expect(hasPermission(record('admin'), code, 'delete', DEMO_LOCATION_IDS)).toBe(true);
      expect(hasPermission(record('noaccess'), code)).toBe(false);
    }
    expect(hasPermission(record('officer'), 'e', 'view', [1, 2])).toBe(true);
    expect(hasPermission(record('officer'), 'e', 'view', [3])).toBe(false);
    // Citations: written at their own locations, voided by the office.
    expect(hasPermission(record('officer'), 'e', 'add', [1, 2])).toBe(true);
    expect(hasPermission(record('officer'), 'e', 'add', [3])).toBe(false);
    expect(hasPermission(record('officer'), 'e', 'edit', [1])).toBe(false);
    expect(hasPermission(record('finance'), 'sd', 'view', DEMO_LOCATION_IDS)).toBe(true);
    expect(hasPermission(record('finance'), 'sd', 'add')).toBe(false);
    expect(hasPermission(record('promo'), 'pc', 'add', [3])).toBe(true);
    expect(hasPermission(record('promo'), 'pc', 'edit', [3])).toBe(false);
  });
});
