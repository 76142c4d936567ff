/**
 * `npm run bench:smoke`: every bench at its small size (`--smoke`), one after another, so a bench that no longer runs
 * is found by CI rather than by the next person measuring. A bench passes when it exits 0, writes
 * bench/results/smoke/<bench>.json during this run, the schema accepts it, and its own checks passed. Its figures
 * are not judged: a smoke size measures nothing. `npm run bench:smoke -- sync rates` runs only those.
 *
 * Most of a smoke run is setting up, not measuring: the PGlite databases start from one new cluster's files made here
 * (bench/lib/pglite-image.ts), and two benches run at a time (`--jobs N`, default 2: they wait on PostgreSQL, the
 * browser and the disk much of the time, and a smoke size's checks do not depend on the machine being quiet).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeEmptyPgliteCluster } from '../server/testing/pglite-image';
import { RESULTS_DIRS } from './lib/bench-run';
import { benchScripts } from './lib/bench-scripts';
import { option } from './lib/cli';
import { PGLITE_IMAGE_ENV } from './lib/pglite-image';
import { formatTable } from './lib/report';
import { benchResultSchema } from './lib/result-schema';

/** A bench's smoke run that takes longer than this is stopped and fails. */
const TIMEOUT_MS = 150_000;

const JOBS = Number(option('jobs') ?? 2);
if (!Number.isInteger(JOBS) || JOBS < 1) throw new Error(`--jobs must be an integer ≥ 1, not ${option('jobs')}`);
const only = process.argv.slice(2).filter((arg, i, args) => !arg.startsWith('--') && args[i - 1] !== '--jobs');
const scripts = benchScripts().filter((script) => only.length === 0 || only.includes(script.name));

function runSmoke(file: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const child = spawn('npx', ['tsx', file, '--smoke'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  const timer = setTimeout(() => {
    output.push(Buffer.from(`\nstopped after ${TIMEOUT_MS / 1000} s\n`));
    process.kill(-child.pid!, 'SIGKILL');
  }, TIMEOUT_MS);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: Buffer.concat(output).toString() });
    }),
  );
}

function problemWith(name: string): string | null {
  const file = path.join(RESULTS_DIRS.smoke, `${name}.json`);
  if (!existsSync(file)) return `wrote no ${path.relative(process.cwd(), file)}`;
  const parsed = benchResultSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) return `its JSON does not fit the schema: ${parsed.error.message}`;
  if (parsed.data.size !== 'smoke') return `its JSON says size ${parsed.data.size}`;
  const failed = parsed.data.checks.filter((check) => !check.pass);
  if (failed.length > 0) return `checks failed: ${failed.map((check) => `${check.name}${check.detail ? ` (${check.detail})` : ''}`).join('; ')}`;
  return null;
}

const started = performance.now();
const imageDir = mkdtempSync(path.join(tmpdir(), 'lpa-smoke-pglite-'));
const image = path.join(imageDir, 'empty-cluster.tar');
await writeEmptyPgliteCluster(image);
const env = { ...process.env, [PGLITE_IMAGE_ENV]: image };

const rows: (string | number)[][] = [];
let failures = 0;
async function smokeOne(script: (typeof scripts)[number]): Promise<void> {
  rmSync(path.join(RESULTS_DIRS.smoke, `${script.name}.json`), { force: true });
  const benchStarted = performance.now();
  const { code, output } = await runSmoke(script.file, env);
  const seconds = Math.round((performance.now() - benchStarted) / 100) / 10;
  const problem = code !== 0 ? `exited with ${code}` : problemWith(script.name);
  rows.push([script.name, seconds, problem ?? 'ok']);
  if (problem) {
    failures++;
    console.log(`\n✗ bench:${script.name} --smoke: ${problem}\n${output.split('\n').slice(-60).join('\n')}`);
  } else {
    console.log(`✓ bench:${script.name} --smoke (${seconds} s)`);
  }
}
const queue = [...scripts];
try {
  await Promise.all(
    Array.from({ length: Math.min(JOBS, queue.length) }, async () => {
      for (let script = queue.shift(); script !== undefined; script = queue.shift()) await smokeOne(script);
    }),
  );
} finally {
  rmSync(imageDir, { recursive: true, force: true });
}
rows.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
console.log(`\n${formatTable(['bench', 'seconds', 'result'], rows)}\n${scripts.length} benches, ${JOBS} at a time: ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(failures > 0 || scripts.length === 0 ? 1 : 0);
