import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../config';

const staging = { name: 'staging', url: 'postgres://copy@db.internal/lpa_staging' };
const production = { name: 'production', url: 'postgresql://copy@db.internal/lpa', production: true };

describe('Database Copy configuration (COPY_DATABASES, PRODUCTION_ADMIN_HOST)', () => {
  it('reads named databases, production marked, and the production admin host', () => {
    const config = readServerConfig({
      COPY_DATABASES: JSON.stringify([production, staging]),
      PRODUCTION_ADMIN_HOST: 'Admin.Example.com',
    });
    expect(config.databaseCopy).toEqual({
      databases: [production, { ...staging, production: false }],
      productionAdminHost: 'admin.example.com',
    });
  });

  it('has none configured by default, and the console’s production host', () => {
    expect(readServerConfig({}).databaseCopy).toEqual({ databases: [], productionAdminHost: 'admin.lightningpay.com' });
  });

  it.each([
    ['not JSON', '[{name:', /COPY_DATABASES: not JSON/],
    ['one database', JSON.stringify([staging]), /COPY_DATABASES.*at least two databases/],
    ['a name with capitals', JSON.stringify([production, { ...staging, name: 'Staging' }]), /COPY_DATABASES\[1\]\.name: a name is/],
    ['a URL of another scheme', JSON.stringify([production, { ...staging, url: 'mysql://x/y' }]), /COPY_DATABASES\[1\]\.url: a url is a postgres/],
    ['a missing url', JSON.stringify([production, { name: 'staging' }]), /COPY_DATABASES\[1\]\.url: a url is a postgres/],
    ['an unknown key', JSON.stringify([production, { ...staging, password: 'x' }]), /COPY_DATABASES\[1\]/],
    ['a name used twice', JSON.stringify([staging, staging]), /COPY_DATABASES: the name "staging" is used twice/],
  ])('refuses %s with a message naming the entry', (_case, value, message) => {
    expect(() => readServerConfig({ COPY_DATABASES: value })).toThrow(message);
  });
});
