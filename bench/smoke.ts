/**
 * `npm run bench:smoke`: every bench at its small size (`--smoke`), one after another, so a bench that no longer runs
 * is found by CI rather than by the next person measuring. A bench passes when it exits 0, writes
 * bench/results/smoke/<bench>.json during this run, the schema accepts it, and its own checks passed. Its figures
 * are not judged: a smoke size measures nothing. `npm run bench:smoke -- sync rates` runs only those.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_DIRS } from './lib/bench-run';
import { benchScripts } from './lib/bench-scripts';
import { formatTable } from './lib/report';
import { benchResultSchema } from './lib/result-schema';

/** A bench's smoke run that takes longer than this is stopped and fails. */
const TIMEOUT_MS = 150_000;

const only = process.argv.slice(2);
const scripts = benchScripts().filter((script) => only.length === 0 || only.includes(script.name));

function runSmoke(file: string): Promise<{ code: number | null; output: string }> {
  const child = spawn('npx', ['tsx', file, '--smoke'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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

const rows: (string | number)[][] = [];
let failures = 0;
for (const script of scripts) {
  rmSync(path.join(RESULTS_DIRS.smoke, `${script.name}.json`), { force: true });
  const started = performance.now();
  const { code, output } = await runSmoke(script.file);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const problem = code !== 0 ? `exited with ${code}` : problemWith(script.name);
  rows.push([script.name, seconds, problem ?? 'ok']);
  if (problem) {
    failures++;
    console.log(`\n✗ bench:${script.name} --smoke: ${problem}\n${output.split('\n').slice(-60).join('\n')}`);
  } else {
    console.log(`✓ bench:${script.name} --smoke (${seconds} s)`);
  }
}
console.log(`\n${formatTable(['bench', 'seconds', 'result'], rows)}`);
process.exit(failures > 0 || scripts.length === 0 ? 1 : 0);
