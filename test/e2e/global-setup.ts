import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, readdirSync, rmSync, cpSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { waitForUrl } from '../../scripts/wait-for-url';
import { E2E_PRODUCTION_HOST } from './production-host';
import { stackFor, stackUrls, type Stack } from './stack';

/**
 * Starts one stack per Playwright worker (test/e2e/stack.ts), all at once: for each an Auth emulator, the API on an
 * in-memory PGlite with the demo seed, MailDev and the console's production build behind `vite preview`. The console
 * is built once, for stack 0; the other stacks serve copies of that build with stack 0's API and emulator addresses
 * replaced by theirs (the only thing a build of their own would change). Each process's output goes to
 * test-results/e2e-stacks/<stack>/<process>.log. Returns the teardown that stops them all.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const LOGS = path.join(ROOT, 'test-results/e2e-stacks');
const START_TIMEOUT_MS = 240_000;

/** The console build's settings for a stack (Vite reads them at build time). */
function consoleEnv(stack: Stack): Record<string, string> {
  const urls = stackUrls(stack);
  return {
    VITE_API_BASE: urls.api,
    VITE_FIREBASE_PROJECT_ID: stack.projectId,
    VITE_FIREBASE_API_KEY: 'demo-api-key',
    VITE_FIREBASE_AUTH_EMULATOR_URL: urls.emulator,
    // An open console checks its permissions every 5 s instead of every minute (users-roles.spec.ts waits for it).
    VITE_PERMISSIONS_REFRESH_MS: '5000',
    // The same build serves as the production admin console when opened as http://localhost:<port> (the tests
    // otherwise use 127.0.0.1): database-copy.spec.ts checks that Database Copy is absent and refused there.
    VITE_PRODUCTION_HOST: E2E_PRODUCTION_HOST,
  };
}

function apiEnv(stack: Stack): Record<string, string> {
  const urls = stackUrls(stack);
  return {
    PORT: String(stack.apiPort),
    HOST: '127.0.0.1',
    PGLITE_DIR: 'memory://',
    DATABASE_URL: '',
    DEV_SEED: '1',
    // 30 days of payment history at 40 a location-day (~7,000): the officer's expired transactions then still fit
    // one sync page of 2,000, which enforcement-sync.spec.ts counts on (200 a day would make ~5,400 of them).
    DEV_SEED_HISTORY_PER_DAY: '40',
    LPA_DATA_DIR: stack.dataDir,
    FIREBASE_PROJECT_ID: stack.projectId,
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${stack.emulatorPort}`,
    SESSION_SECRET: stack.sessionSecret,
    CORS_ORIGINS: `${urls.console},http://${E2E_PRODUCTION_HOST}:${stack.consolePort}`,
    PRODUCTION_ADMIN_HOST: E2E_PRODUCTION_HOST,
    // Mailing goes to the stack's own MailDev, at up to 200 messages a second.
    MAIL_SMTP_HOST: '127.0.0.1',
    MAIL_SMTP_PORT: String(stack.mailSmtpPort),
    MAIL_RATE_PER_SECOND: '200',
  };
}

/** The Auth emulator's configuration file: its own ports, and those of the hub and logging it starts beside it. */
function emulatorConfig(stack: Stack): string {
  const file = path.join(LOGS, String(stack.index), 'firebase.json');
  const at = (port: number) => ({ host: '127.0.0.1', port });
  const emulators = {
    auth: at(stack.emulatorPort),
    hub: at(stack.emulatorHubPort),
    logging: at(stack.emulatorLoggingPort),
    ui: { enabled: false },
    singleProjectMode: true,
  };
  writeFileSync(file, JSON.stringify({ emulators }, null, 2));
  return file;
}

class Processes {
  private readonly running: ChildProcess[] = [];

  /** Runs a command in its own process group (so the teardown stops what it starts, too), output to its log file. */
  start(stack: Stack, name: string, command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
    const log = createWriteStream(path.join(LOGS, String(stack.index), `${name}.log`));
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.running.push(child);
    return child;
  }

  /** SIGTERM to every group, then SIGKILL to what still runs after 10 s, so the next run finds its ports free. */
  async stopAll(): Promise<void> {
    const alive = this.running.filter((child) => child.pid !== undefined && child.exitCode === null && child.signalCode === null);
    const signal = (child: ChildProcess, name: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, name);
      } catch {
        // already gone
      }
    };
    const exits = alive.map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of alive) signal(child, 'SIGTERM');
    const timer = setTimeout(() => alive.forEach((child) => signal(child, 'SIGKILL')), 10_000);
    await Promise.all(exits);
    clearTimeout(timer);
  }
}

/** Resolves when the command exits with 0; otherwise rejects naming its log. */
function finished(child: ChildProcess, what: string, log: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed (exit ${code}); see ${log}`))));
  });
}

/** Rejects if the process ends before the run does: a server that exits while starting is a failure, not a wait. */
function stillRunning(child: ChildProcess, what: string, log: string): Promise<never> {
  return new Promise((_, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`${what} exited while starting (${signal ?? code}); see ${log}`)));
  });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** A port already answering would be mistaken for our server being ready: stop at once and say which. */
async function checkPortsFree(stacks: Stack[]): Promise<void> {
  const ports = stacks.flatMap((stack) => [
    stack.emulatorPort,
    stack.emulatorHubPort,
    stack.emulatorLoggingPort,
    stack.apiPort,
    stack.consolePort,
    stack.mailSmtpPort,
    stack.mailWebPort,
  ]);
  const busy = (await Promise.all(ports.map(async (port) => ((await portAnswers(port)) ? port : null)))).filter((port) => port !== null);
  if (busy.length > 0) throw new Error(`The end-to-end stacks need ports ${busy.join(', ')}, and something answers there already.`);
}

/** Stack n's console: stack 0's build with its API and emulator addresses replaced (the same length, 4-digit ports). */
function relocateConsole(from: Stack, to: Stack): void {
  const source = path.join(ROOT, from.consoleDir);
  const target = path.join(ROOT, to.consoleDir);
  rmSync(target, { recursive: true, force: true });
  cpSync(source, target, { recursive: true });
  const replacements = [
    [stackUrls(from).api, stackUrls(to).api],
    [stackUrls(from).emulator, stackUrls(to).emulator],
  ] as const;
  const found = new Map<string, number>();
  for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|html|json|webmanifest)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    let text = readFileSync(file, 'utf8');
    for (const [old, replacement] of replacements) {
      const parts = text.split(old);
      found.set(old, (found.get(old) ?? 0) + parts.length - 1);
      text = parts.join(replacement);
    }
    writeFileSync(file, text);
  }
  const missing = replacements.filter(([old]) => !found.get(old));
  if (missing.length > 0) throw new Error(`The console build names no ${missing.map(([old]) => old).join(' nor ')}: cannot copy it for stack ${to.index}.`);
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const stacks = Array.from({ length: config.workers }, (_, index) => stackFor(index));
  await checkPortsFree(stacks);
  const processes = new Processes();
  const logOf = (stack: Stack, name: string) => path.join(LOGS, String(stack.index), `${name}.log`);
  try {
    for (const stack of stacks) {
      rmSync(path.join(LOGS, String(stack.index)), { recursive: true, force: true });
      mkdirSync(path.join(LOGS, String(stack.index)), { recursive: true });
    }
    const [first] = stacks as [Stack, ...Stack[]];
    const build = processes.start(first, 'console-build', path.join(BIN, 'vite'), ['build', '--mode', 'e2e', '--outDir', first.consoleDir], consoleEnv(first));
    const ready: Promise<void>[] = [];
    const serve = (stack: Stack, name: string, command: string, args: string[], url: string, env?: Record<string, string>) => {
      const child = processes.start(stack, name, command, args, env);
      const exited = stillRunning(child, `stack ${stack.index}'s ${name}`, logOf(stack, name));
      exited.catch(() => {}); // it ends at the teardown too, when nobody waits for it any more
      ready.push(Promise.race([waitForUrl(url, START_TIMEOUT_MS), exited]));
    };
    for (const stack of stacks) {
      const urls = stackUrls(stack);
      serve(stack, 'emulator', path.join(BIN, 'firebase'), ['emulators:start', '--only', 'auth', '--project', stack.projectId, '--config', emulatorConfig(stack)], `${urls.emulator}/`);
      serve(stack, 'api', path.join(BIN, 'tsx'), ['server/main.ts'], `${urls.api}/health`, apiEnv(stack));
      const mailArgs = ['--ip', '127.0.0.1', '--smtp', String(stack.mailSmtpPort), '--web', String(stack.mailWebPort), '--silent'];
      serve(stack, 'maildev', path.join(BIN, 'maildev'), mailArgs, `${urls.mailWeb}/email`);
    }
    await finished(build, 'The console build', logOf(first, 'console-build'));
    for (const stack of stacks) {
      if (stack !== first) relocateConsole(first, stack);
      const previewArgs = ['preview', '--mode', 'e2e', '--outDir', stack.consoleDir, '--port', String(stack.consolePort), '--strictPort'];
      serve(stack, 'console', path.join(BIN, 'vite'), previewArgs, stackUrls(stack).console);
    }
    await Promise.all(ready);
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
  return () => processes.stopAll();
}
