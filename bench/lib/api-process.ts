import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SESSION_HEADER } from '../../src/contract/envelope';
import { idTokenFor } from '../../server/testing/test-api';
import type { ApiProcessOptions } from './api-process-options';
import { RESULTS_DIR } from './report';

/**
 * How the API process runs: `node`, the server bundled into one JavaScript file (esbuild, packages left in
 * node_modules), as a deployment runs it; or `tsx`, as `npm start` runs it (`tsx server/main.ts`), whose TypeScript
 * loader alone holds ~80 MB more.
 */
export type ApiRuntime = 'node' | 'tsx';

export interface ApiProcess {
  url: string;
  pid: number;
  /** Request headers for a signed-in account (fake ID token + session from POST /auth/permissions). */
  headersFor(email: string): Promise<Record<string, string>>;
  /** Resident set size (VmRSS) and its high-water mark (VmHWM) now, in MB (10⁶ bytes). */
  memory(): { rssMB: number; hwmMB: number };
  stop(): Promise<void>;
}

const MAIN = fileURLToPath(new URL('./api-process-main.ts', import.meta.url));
/** Inside the repository, so that the bundle finds node_modules; bench/results is not versioned. */
const BUNDLE = path.join(RESULTS_DIR, 'api-process', 'api-process-main.mjs');

/** Bundles api-process-main.ts and what it imports from the repository (esbuild comes with tsx). */
export async function bundleApiProcess(): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [MAIN],
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return BUNDLE;
}

/** `VmRSS:   123456 kB` → MB (10⁶ bytes). */
function statusField(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? (Number(match[1]) * 1024) / 1e6 : Number.NaN;
}

/**
 * Starts the reference API in a separate Node process, so that its resident memory can be read from
 * /proc/<pid>/status while it works. The `node` runtime needs bundleApiProcess() first.
 */
export async function startApiProcess(options: ApiProcessOptions, runtime: ApiRuntime): Promise<ApiProcess> {
  const entry = runtime === 'node' ? [BUNDLE] : ['--import', 'tsx', MAIN];
  const child = spawn(process.execPath, [...entry, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = child.pid!;
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n').find((text) => text.startsWith('{"port"'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`API process exited (${code}) before listening`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const headersFor = async (email: string) => {
    const authorization = `Bearer ${idTokenFor(email)}`;
    const response = await fetch(`${url}/auth/permissions`, {
      method: 'POST',
      headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    const body = (await response.json()) as { data?: { userData: { token: string } }; message?: string };
    if (!response.ok || !body.data) throw new Error(`Sign-in of ${email} failed: ${body.message ?? response.status}`);
    return { Authorization: authorization, [SESSION_HEADER]: body.data.userData.token };
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  return {
    url,
    pid,
    headersFor,
    memory: () => ({ rssMB: statusField(pid, 'VmRSS'), hwmMB: statusField(pid, 'VmHWM') }),
    stop,
  };
}
