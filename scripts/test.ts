/**
 * `npm test`: type check, lint, the JavaScript budgets (scripts/js-budgets.ts), unit + component + integration
 * (Vitest, server on PGlite and on a throwaway PostgreSQL), end-to-end in headless Chromium (Playwright), then every
 * benchmark at its smoke size (bench/smoke.ts: it proves they run, and measures nothing). Makes sure the machine has
 * Chromium and PostgreSQL, installing them or stopping with the command to run (scripts/prerequisites.ts). Steps of one phase run at the same time (the install is mostly waiting on the network,
 * the checks on the cores), and each one's output is printed whole when it ends; a phase of one step prints as it
 * goes. Stops after the first phase with a failing step and ends with one summary line of passed and failed tests.
 * `npm test -- <words>` runs only the steps whose name contains them (e.g. `npm test -- end-to-end`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { Prerequisite } from './prerequisites';

interface Step {
  name: string;
  command: string;
  needs?: Prerequisite[];
}

const PHASES: Step[][] = [
  [
    { name: 'type check', command: 'tsc --noEmit -p .' },
    { name: 'lint', command: 'npm run lint' },
    { name: 'JavaScript budgets', command: 'tsx scripts/js-budgets.ts' },
  ],
  [
    {
      name: 'unit, component and integration tests',
      command: 'vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json',
      needs: ['postgresql'],
    },
  ],
  [{ name: 'end-to-end tests', command: 'playwright test', needs: ['chromium'] }],
  // Every bench at a small size, so none rots (bench/smoke.ts); it measures nothing.
  [{ name: 'benchmark smoke runs', command: 'tsx bench/smoke.ts', needs: ['chromium', 'postgresql'] }],
];

const only = process.argv.slice(2).join(' ');
const phases = PHASES.map((steps) => steps.filter((step) => !only || step.name.includes(only))).filter((steps) => steps.length > 0);
const needs = [...new Set(phases.flat().flatMap((step) => step.needs ?? []))];
// The install goes with the first phase; the first phase that needs something waits for it.
const prerequisites: Step | null =
  needs.length > 0 ? { name: 'prerequisites', command: `tsx scripts/prerequisites-cli.ts ${needs.join(' ')}` } : null;

rmSync('test-results/vitest.json', { force: true });
rmSync('test-results/e2e-report.json', { force: true });

interface Outcome {
  step: Step;
  ok: boolean;
  seconds: number;
}

/** Runs one step; its output streams when it runs alone, and is kept and printed whole when it runs beside others. */
function run(step: Step, alone: boolean): Promise<Outcome> {
  const started = performance.now();
  if (alone) console.log(`\n▶ ${step.name}: ${step.command}`);
  const child = spawn(step.command, { shell: true, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (!alone) {
        console.log(`\n▶ ${step.name}: ${step.command}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(`◀ ${step.name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(0)} s`);
      resolve({ step, ok: code === 0, seconds });
    });
  });
}

let failedStep: string | null = null;
let installing: Promise<Outcome> | null = prerequisites ? run(prerequisites, false) : null;
for (const steps of phases) {
  if (installing && steps.some((step) => step.needs)) {
    const installed = await installing;
    installing = null;
    if (!installed.ok) {
      failedStep = installed.step.name;
      break;
    }
  }
  const outcomes = await Promise.all(steps.map((step) => run(step, steps.length === 1 && !installing)));
  const failed = outcomes.find((outcome) => !outcome.ok);
  if (failed) {
    failedStep = failed.step.name;
    break;
  }
}
if (installing && !(await installing).ok && !failedStep) failedStep = 'prerequisites';

function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : null;
}
const vitest = readJson('test-results/vitest.json') as { numPassedTests: number; numFailedTests: number } | null;
const e2e = readJson('test-results/e2e-report.json') as { stats: { expected: number; unexpected: number; flaky: number } } | null;
const passed = (vitest?.numPassedTests ?? 0) + (e2e ? e2e.stats.expected + e2e.stats.flaky : 0);
const failed = (vitest?.numFailedTests ?? 0) + (e2e?.stats.unexpected ?? 0);

console.log('');
if (failedStep) console.log(`npm test stopped: the ${failedStep} step failed.`);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failedStep ? 1 : 0);
