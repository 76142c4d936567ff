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
      NODE_ENV: 'production',
    });
    expect(config.port).toBe(9000);
    expect(config.database.databaseUrl).toBeUndefined();
    expect(config.devSeed).toBe(true);
    expect(config.corsOrigins).toEqual(['https://admin.example.com', 'http://localhost:5173']);
    expect(config.session.allowGeneratedSecret).toBe(false);
  });

  it('keeps memory:// for a throwaway PGlite and resolves folders', () => {
    expect(readServerConfig({ PGLITE_DIR: 'memory://' }).database.pgliteDir).toBe('memory://');
    expect(readServerConfig({ PGLITE_DIR: 'tmp/db' }).database.pgliteDir).toBe(path.resolve('tmp/db'));
  });

  it('names the variable that is wrong', () => {
    expect(() => readServerConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readServerConfig({ SESSION_TTL_SECONDS: '5' })).toThrow(/SESSION_TTL_SECONDS/);
    expect(() => readServerConfig({ DATABASE_URL: 'mysql://x/y' })).toThrow(/DATABASE_URL/);
  });
});
