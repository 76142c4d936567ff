import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OCR_ASSET_SOURCES, TESSERACT_VERSION } from './ocr-assets';

const require = createRequire(import.meta.url);

describe('the plate reader’s served files', () => {
  it('are named by the installed Tesseract.js version, so an upgrade is a new folder for the caches', () => {
    const installed = JSON.parse(readFileSync(require.resolve('tesseract.js/package.json'), 'utf8')) as { version: string };
    expect(TESSERACT_VERSION).toBe(installed.version);
  });

  it('all exist in node_modules (the build copies each one)', () => {
    for (const source of Object.values(OCR_ASSET_SOURCES)) expect(existsSync(require.resolve(source)), source).toBe(true);
  });

  it('include a core with SIMD and one without, each beside its .wasm (the core finds it by name)', () => {
    for (const core of ['tesseract-core-simd-lstm', 'tesseract-core-lstm']) {
      expect(Object.keys(OCR_ASSET_SOURCES)).toEqual(expect.arrayContaining([`${core}.js`, `${core}.wasm`]));
    }
  });
});
