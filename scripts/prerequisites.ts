/**
 * What `npm test` needs from the machine besides node_modules: Debian's Chromium for the end-to-end tests and
 * PostgreSQL's server binaries for the integration tests' throwaway cluster, found where the tests look for them
 * (test/chromium.ts, test/postgres-binaries.ts). Missing ones are installed with apt-get when this runs as root on a
 * machine that has it (CI, a fresh container); otherwise `npm test` stops before its first step, naming the command
 * to run.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH, E2E_CHROMIUM_PATH } from '../test/chromium';
import { findPostgresBinDir } from '../test/postgres-binaries';

export type Prerequisite = 'chromium' | 'postgresql';

/**
 * The Debian packages that bring each prerequisite: the browser and its headless shell (the end-to-end tests'
 * browser; the benchmarks use the full one), fonts so that pages render text as on a desktop.
 */
export const APT_PACKAGES: Record<Prerequisite, readonly string[]> = {
  chromium: ['chromium', 'chromium-headless-shell', 'fonts-liberation'],
  postgresql: ['postgresql'],
};

const DESCRIPTIONS: Record<Prerequisite, string> = {
  chromium: 'Chromium (for the end-to-end tests)',
  postgresql: 'PostgreSQL server binaries, initdb and pg_ctl (for the integration tests)',
};

/** What was found on this machine. */
export interface MachineFacts {
  /** The needed prerequisites that were not found. */
  missing: readonly Prerequisite[];
  /** Whether apt-get is on PATH (a Debian-like system). */
  hasApt: boolean;
  /** Whether this process runs as root, so apt-get may install. */
  isRoot: boolean;
  /** CHROMIUM_PATH when set in the environment: a Chromium of one's own, which no package install puts there. */
  chromiumPathFromEnv?: string | undefined;
}

export type PrerequisitePlan =
  | { action: 'none' }
  | { action: 'install'; packages: string[] }
  | { action: 'stop'; message: string };

export function aptPackagesFor(missing: readonly Prerequisite[]): string[] {
  return missing.flatMap((prerequisite) => APT_PACKAGES[prerequisite]);
}

function missingLine(missing: readonly Prerequisite[]): string {
  return `npm test needs ${missing.map((prerequisite) => DESCRIPTIONS[prerequisite]).join(' and ')}, not found here.`;
}

/** What a person runs: apt-get through sudo. */
export function sudoInstallCommand(packages: readonly string[]): string {
  return `sudo apt-get install ${packages.join(' ')}`;
}

/** What `npm test` runs as root (and .ci/run did before it): quiet, no prompts, no recommended extras. */
export function rootInstallCommands(packages: readonly string[]): string[][] {
  return [
    ['apt-get', 'update', '-qq'],
    ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages],
  ];
}

/** What to do, given what is missing and whether this process may install it. */
export function planPrerequisites(facts: MachineFacts): PrerequisitePlan {
  const { missing, hasApt, isRoot, chromiumPathFromEnv } = facts;
  if (missing.length === 0) return { action: 'none' };
  if (chromiumPathFromEnv && missing.includes('chromium')) {
    return {
      action: 'stop',
      message:
        `CHROMIUM_PATH is ${chromiumPathFromEnv}, and there is no Chromium there. Point it at a Chromium, or unset ` +
        'it to use Debian\'s (/usr/bin/chromium).',
    };
  }
  const packages = aptPackagesFor(missing);
  if (hasApt && isRoot) return { action: 'install', packages };
  if (hasApt) {
    return { action: 'stop', message: `${missingLine(missing)} Install with:\n  ${sudoInstallCommand(packages)}` };
  }
  const alternatives = [
    ...(missing.includes('chromium') ? ['CHROMIUM_PATH at a Chromium binary'] : []),
    ...(missing.includes('postgresql') ? ['DATABASE_URL at a PostgreSQL server the tests may create schemas in'] : []),
  ];
  return {
    action: 'stop',
    message:
      `${missingLine(missing)} This machine has no apt-get: install ${missing.length > 1 ? 'them' : 'it'} with its ` +
      `package manager, or set ${alternatives.join(' and ')}.`,
  };
}

/** The effects `ensurePrerequisites` needs; tests pass fakes. */
export interface Machine {
  facts(needed: readonly Prerequisite[]): MachineFacts;
  /** Runs apt-get update and apt-get install; true when both succeeded. */
  aptInstall(packages: readonly string[]): boolean;
  log(line: string): void;
}

export type PrerequisitesResult = { ok: true } | { ok: false; message: string };

/** Checks the prerequisites of the steps about to run, installs them when it may, and says whether to go on. */
export function ensurePrerequisites(
  needed: readonly Prerequisite[],
  machine: Machine = thisMachine,
): PrerequisitesResult {
  const facts = machine.facts(needed);
  const plan = planPrerequisites(facts);
  if (plan.action === 'none') return { ok: true };
  if (plan.action === 'stop') return { ok: false, message: plan.message };
  const installing = plan.packages.join(' ');
  machine.log(`Installing what this machine lacks for npm test: ${installing}`);
  if (!machine.aptInstall(plan.packages)) {
    const commands = rootInstallCommands(plan.packages).map((command) => command.join(' ')).join(' && ');
    return {
      ok: false,
      message: `Installing ${installing} failed (apt-get's messages are above). Once fixed, run:\n  ${commands}`,
    };
  }
  const stillMissing = machine.facts(needed).missing;
  if (stillMissing.length > 0) {
    return {
      ok: false,
      message:
        `${missingLine(stillMissing)} apt-get installed ${installing}, yet the tests still cannot find it where they ` +
        'look (test/chromium.ts, test/postgres-binaries.ts).',
    };
  }
  return { ok: true };
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function isFound(prerequisite: Prerequisite): boolean {
  if (prerequisite === 'chromium') return existsSync(CHROMIUM_PATH) && existsSync(E2E_CHROMIUM_PATH);
  // The integration tests use DATABASE_URL's server instead of a cluster of their own when it is set.
  return Boolean(process.env.DATABASE_URL) || findPostgresBinDir() !== undefined;
}

const thisMachine: Machine = {
  facts: (needed) => ({
    missing: needed.filter((prerequisite) => !isFound(prerequisite)),
    hasApt: onPath('apt-get'),
    isRoot: process.getuid?.() === 0,
    chromiumPathFromEnv: process.env.CHROMIUM_PATH,
  }),
  aptInstall: (packages) =>
    rootInstallCommands(packages).every(([command = 'apt-get', ...args]) => {
      const run = spawnSync(command, args, {
        // apt's progress goes nowhere; its warnings and errors show.
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      return run.status === 0;
    }),
  log: (line) => console.log(line),
};
