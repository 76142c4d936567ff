/**
 * `npm test`: type check, lint, the JavaScript budgets (scripts/js-budgets.ts), unit + component + integration
 * (Vitest, server on PGlite and on a throwaway PostgreSQL), then end-to-end in headless Chromium (Playwright). First
 * makes sure the machine has Chromium and PostgreSQL, installing them or stopping at once with the command to run
 * (scripts/prerequisites.ts). Stops at the first failing step and ends with one summary line of passed and failed
 * tests.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { ensurePrerequisites, type Prerequisite } from './prerequisites';

const steps: { name: string; command: string; needs?: Prerequisite[] }[] = [
  { name: 'type check', command: 'tsc --noEmit -p .' },
  { name: 'lint', command: 'npm run lint' },
  { name: 'JavaScript budgets', command: 'tsx scripts/js-budgets.ts' },
  {
    name: 'unit, component and integration tests',
    command: 'vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json',
    needs: ['postgresql'],
  },
  { name: 'end-to-end tests', command: 'playwright test', needs: ['chromium'] },
];

const only = process.argv[2];
const selected = steps.filter((step) => !only || step.name.includes(only));
const prerequisites = ensurePrerequisites(selected.flatMap((step) => step.needs ?? []));
if (!prerequisites.ok) {
  console.error(`\nnpm test stopped before its first step. ${prerequisites.message}`);
  process.exit(1);
}
rmSync('test-results/vitest.json', { force: true });
rmSync('test-results/e2e-report.json', { force: true });

let failedStep: string | null = null;
for (const step of selected) {
  console.log(`\n▶ ${step.name}: ${step.command}`);
  const run = spawnSync(step.command, { stdio: 'inherit', shell: true });
  if (run.status !== 0) {
    failedStep = step.name;
    break;
  }
}

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
