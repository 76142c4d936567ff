import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const DOM_TESTS = ['src/**/*.test.tsx', 'test/dom/**/*.test.tsx'];

/**
 * DOM test files that replace a module (`vi.mock`). The other DOM files share one jsdom and one module graph per worker
 * (`isolate: false`), where a file's mock could miss a module another file loaded first; these keep a fresh one each.
 */
function domFilesThatMock(): string[] {
  return ['src', 'test/dom']
    .flatMap((dir) => readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => `${dir}/${file}`))
    .filter((file) => file.endsWith('.test.tsx') && readFileSync(file, 'utf8').includes('vi.mock('));
}
const MOCKING_DOM_TESTS = domFilesThatMock();

// Three tiers: pure modules in Node, components in jsdom, and the reference API against PGlite and a throwaway
// PostgreSQL cluster (started by test/setup/postgres.ts). End-to-end tests are Playwright's (playwright.config.ts).
export default defineConfig({
  plugins: [react()],
  test: {
    // Two files at a time. Vitest's default is one less than the cores, so on CI's two cores it ran one file at a time:
    // 741 s, of which the mailing crash test took 336 s; two at a time took 565–674 s. Files are independent: each
    // PostgreSQL suite has its own schema or database (production-start alone migrates the cluster's default schema).
    maxWorkers: 2,
    // A file now shares the cores with another: room for a slow moment (5 s by default; alone, the slowest test without
    // a timeout of its own took 4.6 s).
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/lib/**/*.test.ts', 'test/lint/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: DOM_TESTS,
          exclude: MOCKING_DOM_TESTS,
          setupFiles: ['test/setup/dom.ts'],
          // One jsdom and one module graph per worker instead of one per file: the whole project took 142 core-seconds
          // against 320 isolated (one run each, same load). Every file cleans the DOM and storage after each test
          // (test/setup/dom.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom-mocks',
          environment: 'jsdom',
          include: MOCKING_DOM_TESTS,
          setupFiles: ['test/setup/dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          environment: 'node',
          include: ['server/**/*.int.test.ts'],
          globalSetup: ['test/setup/postgres.ts', 'test/setup/pglite-image.ts'],
          // PGlite's WebAssembly compiled by the baseline compiler alone (V8 otherwise optimises the whole module in the
          // background): a file's first database opens with ~1 s of a core instead of ~2.5, and write-heavy files took
          // 0.80–0.88× the CPU in paired runs.
          execArgv: ['--liftoff-only'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
