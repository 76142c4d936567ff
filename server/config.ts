import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeIssues } from './zod-issues';

/**
 * Local state (PGlite files, session secret, extra seed users) lives in the git-ignored .data/ of the repository;
 * LPA_DATA_DIR moves it (the end-to-end run keeps its own, so a developer's extra users never leak into it).
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DATA_DIR = process.env.LPA_DATA_DIR ? path.resolve(process.env.LPA_DATA_DIR) : path.join(REPO_ROOT, '.data');
export const SEED_USERS_DIR = path.join(DATA_DIR, 'seed-users');
export const SESSION_SECRET_FILE = path.join(DATA_DIR, 'session-secret');
export const DEFAULT_PORT = 8787;

/** An empty variable (`DATABASE_URL=`) means unset, as it does to most tools. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const envSchema = z.object({
  PORT: optional(z.coerce.number().int().min(1).max(65_535)).default(DEFAULT_PORT),
  HOST: optional(z.string()).default('127.0.0.1'),
  DATABASE_URL: optional(z.url({ protocol: /^postgres(ql)?$/ })),
  PGLITE_DIR: optional(z.string()),
  FIREBASE_PROJECT_ID: optional(z.string()).default('demo-lpa'),
  FIREBASE_AUTH_EMULATOR_HOST: optional(z.string()),
  CORS_ORIGINS: optional(z.string()).default('http://localhost:5173,http://127.0.0.1:5173'),
  DEV_SEED: optional(z.enum(['0', '1', 'false', 'true'])),
  DEV_SEED_RECORDS: optional(z.coerce.number().int().min(0).max(2_000_000)).default(10_000),
  SESSION_SECRET: optional(z.string()),
  SESSION_TTL_SECONDS: optional(
    z.coerce
      .number()
      .int()
      .min(60)
      .max(30 * 24 * 3600),
  ).default(43_200),
  NODE_ENV: optional(z.string()),
});

export interface ServerConfig {
  port: number;
  host: string;
  database: { databaseUrl: string | undefined; pgliteDir: string };
  firebaseProjectId: string;
  authEmulatorHost: string | undefined;
  corsOrigins: string[];
  devSeed: boolean;
  /** Enforcement records the development seed keeps on hand (regenerated when none is valid any more). */
  devSeedRecords: number;
  session: { configuredSecret: string | undefined; ttlSeconds: number; allowGeneratedSecret: boolean };
}

/** `memory://` keeps a throwaway database in memory; anything else is a folder, relative to the working directory. */
function resolvePgliteDir(configured: string | undefined): string {
  if (!configured) return path.join(DATA_DIR, 'pglite');
  return configured.startsWith('memory://') ? configured : path.resolve(configured);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid environment:\n  ${describeIssues(parsed.error.issues).join('\n  ')}`);
  }
  const vars = parsed.data;
  return {
    port: vars.PORT,
    host: vars.HOST,
    database: {
      databaseUrl: vars.DATABASE_URL,
      pgliteDir: resolvePgliteDir(vars.PGLITE_DIR),
    },
    firebaseProjectId: vars.FIREBASE_PROJECT_ID,
    authEmulatorHost: vars.FIREBASE_AUTH_EMULATOR_HOST,
    corsOrigins: vars.CORS_ORIGINS.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    devSeed: vars.DEV_SEED === '1' || vars.DEV_SEED === 'true',
    devSeedRecords: vars.DEV_SEED_RECORDS,
    session: {
      configuredSecret: vars.SESSION_SECRET,
      ttlSeconds: vars.SESSION_TTL_SECONDS,
      allowGeneratedSecret: vars.NODE_ENV !== 'production',
    },
  };
}
