/**
 * Where the plate reader's OCR files are served from: the app's own origin, one folder named by the Tesseract.js
 * version (vite.config.ts copies them there from node_modules and the service worker precaches them), so nothing is
 * loaded from a CDN and a new version of the library is a new folder. Shared by the build and the reader.
 */
export const TESSERACT_VERSION = '7.0.0';
export const OCR_ASSETS_DIR = `ocr/tesseract-${TESSERACT_VERSION}`;

/** file served → the file in node_modules it is copied from. */
export const OCR_ASSET_SOURCES: Readonly<Record<string, string>> = {
  'worker.min.js': 'tesseract.js/dist/worker.min.js',
  // The LSTM-only cores: with SIMD (every phone browser since 2021), and without it.
  'tesseract-core-simd-lstm.js': 'tesseract.js-core/tesseract-core-simd-lstm.js',
  'tesseract-core-simd-lstm.wasm': 'tesseract.js-core/tesseract-core-simd-lstm.wasm',
  'tesseract-core-lstm.js': 'tesseract.js-core/tesseract-core-lstm.js',
  'tesseract-core-lstm.wasm': 'tesseract.js-core/tesseract-core-lstm.wasm',
  // The integer "best" English model (LSTM only): 2.9 MB, against 10.9 MB for the one that also carries the legacy engine.
  'eng.traineddata.gz': '@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz',
};
