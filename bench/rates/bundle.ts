import { build } from 'esbuild';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_DIR } from '../lib/report';
import type { RatesBench } from './engines';

/**
 * The engines bundled as the console ships them (esbuild, minified, ES2022), for both runtimes: until issue 35 Node
 * ran the sources under tsx (unminified, its own transform) while the page ran a minified bundle, so the two
 * runtimes did not run the same code.
 */
async function bundle(entry: string, format: 'esm' | 'iife'): Promise<string> {
  const result = await build({
    entryPoints: [path.join(BENCH_DIR, 'rates', entry)],
    bundle: true,
    write: false,
    format,
    platform: format === 'esm' ? 'node' : 'browser',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

/** The page's script: sets `window.ratesBench`. */
export const pageScript = () => bundle('page-entry.ts', 'iife');

/** The same module for Node, written to a temporary file and imported. */
export async function importForNode(): Promise<RatesBench> {
  const dir = await mkdtemp(path.join(tmpdir(), 'lpa-bench-rates-'));
  try {
    const file = path.join(dir, 'engines.mjs');
    await writeFile(file, await bundle('engines.ts', 'esm'));
    return ((await import(pathToFileURL(file).href)) as { ratesBench: RatesBench }).ratesBench;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
