import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Bench pages only: a separate build (into bench/results/dist) so the app's vite.config.ts and dist/ stay untouched.
// Every bench/pages/*.html is an entry: a new benchmark adds its page there and needs no change here.
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const pagesDir = path.join(benchDir, 'pages');
const pages = Object.fromEntries(
  readdirSync(pagesDir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => [path.basename(file, '.html'), path.join(pagesDir, file)]),
);

export default defineConfig({
  root: pagesDir,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: path.join(benchDir, 'results', 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: { input: pages },
  },
  worker: { format: 'es' },
});
