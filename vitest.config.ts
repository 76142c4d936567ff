import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

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
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'test/lint/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx', 'test/dom/**/*.test.tsx'],
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
