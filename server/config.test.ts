import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR, readServerConfig } from './config';

describe('server configuration', () => {
  it('has working defaults', () => {
    const config = readServerConfig({});
    expect(config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      database: { databaseUrl: undefined, pgliteDir: path.join(DATA_DIR, 'pglite') },
      firebaseProjectId: 'demo-lpa',
      corsOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'],
      devSeed: false,
      session: { ttlSeconds: 43_200, allowGeneratedSecret: true },
    });
  });

  it('reads the environment, treating empty variables as unset', () => {
    const config = readServerConfig({
      PORT: '9000',
      DATABASE_URL: '',
      DEV_SEED: '1',
      CORS_ORIGINS: 'https://admin.example.com, http://localhost:5173',
    });
    expect(config.port).toBe(9000);
    expect(config.database.databaseUrl).toBeUndefined();
    expect(config.devSeed).toBe(true);
    expect(config.corsOrigins).toEqual(['https://admin.example.com', 'http://localhost:5173']);
    expect(config.session.allowGeneratedSecret).toBe(true);
  });

  const production = { NODE_ENV: 'production', FIREBASE_PROJECT_ID: 'lpa-production' };

  it('accepts a production environment, which may not generate its session secret', () => {
    const config = readServerConfig({ ...production, CORS_ORIGINS: 'https://admin.example.com' });
    expect(config.session.allowGeneratedSecret).toBe(false);
    expect(config.authEmulatorHost).toBeUndefined();
  });

  it('refuses emulator settings, the dev seed and a demo project in production, naming each', () => {
    expect(() => readServerConfig({ ...production, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST must not be set with NODE_ENV=production/,
    );
    expect(() => readServerConfig({ ...production, DEV_SEED: 'true' })).toThrow(/DEV_SEED must not be on/);
    expect(() => readServerConfig({ NODE_ENV: 'production' })).toThrow(/FIREBASE_PROJECT_ID is demo-lpa/);
    // Outside production the emulator is the point.
    expect(readServerConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', DEV_SEED: '1' }).devSeed).toBe(true);
  });

  it.each([
    '*',
    'https://admin.example.com/',
    'https://admin.example.com/console',
    'admin.example.com',
    'ftp://x.example',
  ])('refuses %s in CORS_ORIGINS: only exact origins may call with credentials', (origin) => {
    expect(() => readServerConfig({ CORS_ORIGINS: `http://127.0.0.1:5173,${origin}` })).toThrow(/CORS_ORIGINS/);
  });

  it('keeps memory:// for a throwaway PGlite and resolves folders', () => {
    expect(readServerConfig({ PGLITE_DIR: 'memory://' }).database.pgliteDir).toBe('memory://');
    expect(readServerConfig({ PGLITE_DIR: 'tmp/db' }).database.pgliteDir).toBe(path.resolve('tmp/db'));
  });

  it('keeps 30 days of dev payment history, 200 a location-day, unless told otherwise', () => {
    expect(readServerConfig({})).toMatchObject({ devSeedHistoryDays: 30, devSeedHistoryPerDay: 200 });
    expect(readServerConfig({ DEV_SEED_HISTORY_DAYS: '0', DEV_SEED_HISTORY_PER_DAY: '40' })).toMatchObject({
      devSeedHistoryDays: 0,
      devSeedHistoryPerDay: 40,
    });
    expect(() => readServerConfig({ DEV_SEED_HISTORY_DAYS: '-1' })).toThrow(/DEV_SEED_HISTORY_DAYS/);
  });

  it('names the variable that is wrong', () => {
    expect(() => readServerConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readServerConfig({ SESSION_TTL_SECONDS: '5' })).toThrow(/SESSION_TTL_SECONDS/);
    expect(() => readServerConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
  });
});
