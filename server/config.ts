import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { MailerSettings } from './mailing/runner';
import { describeIssues } from './http/zod-issues';

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
  // Database Copy (docs/database-copy.md): named PostgreSQL databases, and the console host it is refused from.
  COPY_DATABASES: optional(z.string()),
  PRODUCTION_ADMIN_HOST: optional(z.string()).default('admin.lightningpay.com'),
  // Mailing (docs/mailing.md): the SMTP server mailings go through; locally the MailDev that `npm start` runs.
  MAIL_SMTP_HOST: optional(z.string()).default('127.0.0.1'),
  MAIL_SMTP_PORT: optional(z.coerce.number().int().min(1).max(65_535)).default(1025),
  MAIL_SMTP_SECURE: optional(z.enum(['0', '1', 'false', 'true'])),
  MAIL_SMTP_USER: optional(z.string()),
  MAIL_SMTP_PASSWORD: optional(z.string()),
  MAIL_FROM: optional(z.string()).default('Lightning Pay <no-reply@lightningpay.local>'),
  MAIL_RATE_PER_SECOND: optional(z.coerce.number().int().min(0).max(100_000)).default(100),
  MAIL_CONNECTIONS: optional(z.coerce.number().int().min(1).max(32)).default(4),
  MAIL_POLL_MS: optional(z.coerce.number().int().min(50).max(600_000)).default(5000),
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
  /** The API reference page at /reference: development only, off with NODE_ENV=production (docs/api.md). */
  apiReferencePage: boolean;
  session: { configuredSecret: string | undefined; ttlSeconds: number; allowGeneratedSecret: boolean };
  /** Database Copy: COPY_DATABASES parsed (empty: this database and a local staging PGlite), PRODUCTION_ADMIN_HOST. */
  databaseCopy: { databases: CopyDatabaseSetting[]; productionAdminHost: string };
  /** Mailing's SMTP server, sender, rate (messages per second, 0 = no limit) and parallel connections. */
  mail: MailerSettings;
}

/** `memory://` keeps a throwaway database in memory; anything else is a folder, relative to the working directory. */
function resolvePgliteDir(configured: string | undefined): string {
  if (!configured) return path.join(DATA_DIR, 'pglite');
  return configured.startsWith('memory://') ? configured : path.resolve(configured);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface CopyDatabaseSetting {
  name: string;
  url: string;
  production: boolean;
}

const copyDatabasesSchema = z
  .array(
    z.strictObject({
      name: z
        .string()
        .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a name is 1-40 lower-case letters, digits, "-" or "_"'),
      url: z.url({ protocol: /^postgres(ql)?$/, error: 'a url is a postgres:// connection string' }),
      production: z.boolean().default(false),
    }),
  )
  .min(2, 'list at least two databases (a source and a target)');

/** COPY_DATABASES='[{"name":"production","url":"postgres://…","production":true},{"name":"staging","url":"…"}]'. */
function readCopyDatabases(value: string | undefined): { databases: CopyDatabaseSetting[]; problems: string[] } {
  if (!value) return { databases: [], problems: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(value);
  } catch {
    return { databases: [], problems: ['COPY_DATABASES: not JSON; expected [{"name","url","production"?}, …]'] };
  }
  const parsed = copyDatabasesSchema.safeParse(raw);
  if (!parsed.success) {
    return { databases: [], problems: describeIssues(parsed.error.issues).map((issue) => `COPY_DATABASES${issue.startsWith('[') ? '' : ': '}${issue}`) };
  }
  const names = parsed.data.map((db) => db.name);
  const repeated = names.filter((name, index) => names.indexOf(name) !== index);
  return {
    databases: parsed.data,
    problems: repeated.map((name) => `COPY_DATABASES: the name "${name}" is used twice`),
  };
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
  const copyDatabases = readCopyDatabases(vars.COPY_DATABASES);
  const problems = [
    ...copyDatabases.problems,
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
    apiReferencePage: vars.NODE_ENV !== 'production',
    session: {
      configuredSecret: vars.SESSION_SECRET,
      ttlSeconds: vars.SESSION_TTL_SECONDS,
      allowGeneratedSecret: vars.NODE_ENV !== 'production',
    },
    databaseCopy: { databases: copyDatabases.databases, productionAdminHost: vars.PRODUCTION_ADMIN_HOST.toLowerCase() },
    mail: {
      smtp: {
        host: vars.MAIL_SMTP_HOST,
        port: vars.MAIL_SMTP_PORT,
        secure: vars.MAIL_SMTP_SECURE === '1' || vars.MAIL_SMTP_SECURE === 'true',
        user: vars.MAIL_SMTP_USER,
        password: vars.MAIL_SMTP_PASSWORD,
      },
      from: vars.MAIL_FROM,
      ratePerSecond: vars.MAIL_RATE_PER_SECOND,
      connections: vars.MAIL_CONNECTIONS,
      pollMs: vars.MAIL_POLL_MS,
    },
  };
}
