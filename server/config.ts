import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describeIssues } from './zod-issues';

/**
 * Local state (PGlite files, session secret, extra seed users) lives in the git-ignored .data/ of the repository;
 * LPA_DATA_DIR moves it (the end-to-end run keeps its own, so a developer's extra users never leak into it).
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DATA_DIR = process.env.LPA_DATA_DIR
  ? path.resolve(process.env.LPA_DATA_DIR)
  : path.join(REPO_ROOT, '.data');
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
  DEV_SEED_HISTORY_DAYS: optional(z.coerce.number().int().min(0).max(3660)).default(30),
  DEV_SEED_HISTORY_PER_DAY: optional(z.coerce.number().int().min(0).max(100_000)).default(200),
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
  /** Days of payment history the development seed keeps, ending today (regenerated when it does not reach today). */
  devSeedHistoryDays: number;
  /** Payments per location and day of that history, on average (locations share it by capacity). */
  devSeedHistoryPerDay: number;
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

/** `https://admin.example.com`, `http://127.0.0.1:5173`: a scheme, a host and maybe a port; never `*` or a path. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Settings that are fine on a developer's machine and dangerous on a server. With FIREBASE_AUTH_EMULATOR_HOST set,
 * firebase-admin accepts unsigned ID tokens naming any e-mail; DEV_SEED adds the demo accounts and their known
 * password; a demo- project only exists in the emulator.
 */
function productionProblems(vars: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (vars.NODE_ENV !== 'production') return problems;
  if (vars.FIREBASE_AUTH_EMULATOR_HOST) {
    problems.push(
      'FIREBASE_AUTH_EMULATOR_HOST must not be set with NODE_ENV=production: the emulator accepts unsigned tokens',
    );
  }
  if (vars.DEV_SEED === '1' || vars.DEV_SEED === 'true') {
    problems.push('DEV_SEED must not be on with NODE_ENV=production: it seeds demo accounts with a published password');
  }
  if (vars.FIREBASE_PROJECT_ID.startsWith('demo-')) {
    problems.push(
      `FIREBASE_PROJECT_ID is ${vars.FIREBASE_PROJECT_ID}, a demo project only the emulator knows: set the real one`,
    );
  }
  return problems;
}

export function readServerConfig(env: NodeJS.ProcessEnv): ServerConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid environment:\n  ${describeIssues(parsed.error.issues).join('\n  ')}`);
  }
  const vars = parsed.data;
  const corsOrigins = vars.CORS_ORIGINS.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const problems = [
    ...productionProblems(vars),
    ...corsOrigins
      .filter((origin) => !isOrigin(origin))
      .map((origin) => `CORS_ORIGINS: ${origin} is not an origin (scheme://host[:port], no wildcard, no path)`),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid environment:\n  ${problems.join('\n  ')}`);
  return {
    port: vars.PORT,
    host: vars.HOST,
    database: {
      databaseUrl: vars.DATABASE_URL,
      pgliteDir: resolvePgliteDir(vars.PGLITE_DIR),
    },
    firebaseProjectId: vars.FIREBASE_PROJECT_ID,
    authEmulatorHost: vars.FIREBASE_AUTH_EMULATOR_HOST,
    corsOrigins,
    devSeed: vars.DEV_SEED === '1' || vars.DEV_SEED === 'true',
    devSeedRecords: vars.DEV_SEED_RECORDS,
    devSeedHistoryDays: vars.DEV_SEED_HISTORY_DAYS,
    devSeedHistoryPerDay: vars.DEV_SEED_HISTORY_PER_DAY,
    session: {
      configuredSecret: vars.SESSION_SECRET,
      ttlSeconds: vars.SESSION_TTL_SECONDS,
      allowGeneratedSecret: vars.NODE_ENV !== 'production',
    },
  };
}
