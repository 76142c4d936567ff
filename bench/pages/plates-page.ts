import * as Comlink from 'comlink';
import { verdictPick } from '../../src/worker/first-paint';
import { PlateIndex } from '../../src/worker/plate-index';
import { WORK_HEIGHT, plateLine } from '../../src/worker/plate-reader/plate-line';
import type { PlateRead, PlateReaderApi } from '../../src/worker/plate-reader/plate-reader-api';
import { renderPlate } from '../../test/fixtures/plates/plate-renderer';
import { otherPlates, plateSet, type Difficulty } from '../../test/fixtures/plates/plate-specs';

/**
 * The plate reader bench page: renders the sets (test/fixtures/plates), starts the reader's worker exactly as the app
 * does (module worker + Comlink), and for each image times frame → read → similar-character search → verdict plate.
 * bench/plates.bench.ts drives it through `window.platesBench`.
 */
let reader: Comlink.Remote<PlateReaderApi> | null = null;
let raw: Worker | null = null;
const images = new Map<string, { image: ImageData; truth: string; set: Difficulty }>();
const index = new PlateIndex();
const NOW_SECONDS = 1_780_000_000;

function startReader(): Comlink.Remote<PlateReaderApi> {
  raw = new Worker(new URL('../../src/worker/plate-reader/plate-reader.worker.ts', import.meta.url), { type: 'module' });
  raw.onerror = (event) => console.error(`plate reader worker: ${event.message}`);
  reader = Comlink.wrap<PlateReaderApi>(raw);
  return reader;
}

/** The plate the verdict speaks about for a read (first-paint.ts's rule), else the top similar-only match. */
function verdictPlate(text: string): { plate: string | null; how: 'exact' | 'similar' | 'ambiguous' | 'none' } {
  if (text === '') return { plate: null, how: 'none' };
  const result = index.match({ text, nowSeconds: NOW_SECONDS, similar: true });
  const { valid } = result;
  const exact = valid.keys.slice(0, valid.similarFrom);
  const picked = verdictPick(text, valid.exactTotal, exact, (key) => index.plateOf('transactions', key) ?? '');
  if (picked.length > 0) return { plate: index.plateOf('transactions', picked[0]!) ?? null, how: 'exact' };
  if (valid.exactTotal > 0) return { plate: null, how: 'ambiguous' };
  const first = valid.keys[0];
  return first === undefined ? { plate: null, how: 'none' } : { plate: index.plateOf('transactions', first) ?? null, how: 'similar' };
}

export interface ReadSample {
  id: string;
  set: Difficulty;
  truth: string;
  text: string;
  verdict: string | null;
  how: string;
  ocrMs: number;
  readMs: number;
  frameToVerdictMs: number;
  failed: string | null;
  minConfidence: number;
}

const platesBench = {
  crossOriginIsolated: () => self.crossOriginIsolated,

  /** Renders the sets and builds the search index of the truths among `others` other plates. */
  async prepare(sets: { set: Difficulty; count: number; seed: number }[], others: number, othersSeed: number) {
    const started = performance.now();
    const ids: string[] = [];
    for (const { set, count, seed } of sets) {
      for (const spec of plateSet(set, count, seed)) {
        images.set(spec.id, { image: renderPlate(spec), truth: spec.truth, set });
        ids.push(spec.id);
      }
    }
    const renderMs = performance.now() - started;
    const truths = new Set([...images.values()].map((i) => i.truth));
    const plates = [...truths, ...otherPlates(others, othersSeed, truths)];
    index.upsert(plates.map((plate, key) => ({ source: 'transactions', key, plate, locationId: 1, expiresAt: NOW_SECONDS + 3600 })));
    return { ids, renderMs, indexed: plates.length };
  },

  async warmUp() {
    const started = performance.now();
    await (reader ?? startReader()).warmUp();
    return performance.now() - started;
  },

  /** One image, frame to verdict; a failure or a read past `timeoutMs` counts as a wrong read of `timeoutMs`. */
  async read(id: string, timeoutMs: number): Promise<ReadSample> {
    const entry = images.get(id)!;
    const remote = reader ?? startReader();
    const started = performance.now();
    let read: PlateRead | null = null;
    let failed: string | null = null;
    let verdict: ReturnType<typeof verdictPlate> = { plate: null, how: 'none' };
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // As the Scan view will: the guide box's crop becomes an ImageBitmap, transferred to the worker.
      const bitmap = await createImageBitmap(entry.image);
      read = await Promise.race([
        remote.read(Comlink.transfer(bitmap, [bitmap])),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timeout after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      verdict = verdictPlate(read.text);
    } catch (error) {
      failed = error instanceof Error ? error.message : String(error);
      // A stuck reader is replaced, as the Scan view would.
      raw?.terminate();
      reader = null;
    } finally {
      clearTimeout(timer);
    }
    const elapsed = performance.now() - started;
    return {
      id,
      set: entry.set,
      truth: entry.truth,
      text: read?.text ?? '',
      verdict: verdict.plate,
      how: verdict.how,
      ocrMs: read?.ocrMs ?? timeoutMs,
      readMs: read?.totalMs ?? timeoutMs,
      frameToVerdictMs: failed === null ? elapsed : timeoutMs,
      failed,
      minConfidence: read ? Math.min(100, ...read.characters.map((c) => c.confidence)) : 0,
    };
  },

  /** plateLine alone on the page's thread, per image (ms): the preprocessing's share without the worker around it. */
  preprocessMs(ids: string[]) {
    return ids.map((id) => {
      const { image } = images.get(id)!;
      const t = performance.now();
      plateLine(image);
      return performance.now() - t;
    });
  },

  /** The box's RGBA bytes, base64 (for profiling the preprocessing in Node). */
  rgba(id: string) {
    const { image } = images.get(id)!;
    let binary = '';
    for (const byte of image.data) binary += String.fromCharCode(byte);
    return { width: image.width, height: image.height, base64: btoa(binary) };
  },

  /** For looking at failures: the box as a PNG data URL, and what plateLine made of it. */
  async pictures(id: string) {
    const { image } = images.get(id)!;
    // As the worker sees it: drawn at the work height by the canvas (plate-reader-engine.ts rgbaOf).
    const height = Math.min(image.height, WORK_HEIGHT);
    const width = Math.round((image.width * height) / image.height);
    const small = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
    small.imageSmoothingQuality = 'medium';
    small.drawImage(await createImageBitmap(image), 0, 0, width, height);
    const line = plateLine(small.getImageData(0, 0, width, height));
    const toUrl = async (width: number, height: number, rgba: Uint8ClampedArray<ArrayBuffer>) => {
      const c = new OffscreenCanvas(width, height);
      c.getContext('2d')!.putImageData(new ImageData(rgba, width, height), 0, 0);
      const blob = await c.convertToBlob({ type: 'image/png' });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    };
    const grey: Uint8ClampedArray<ArrayBuffer> = new Uint8ClampedArray(line.width * line.height * 4);
    for (let i = 0; i < line.data.length; i++) grey.fill(line.data[i]!, i * 4, i * 4 + 3).fill(255, i * 4 + 3, i * 4 + 4);
    return { box: await toUrl(image.width, image.height, image.data), line: await toUrl(line.width, line.height, grey), shapes: line.shapes, skew: line.skewDegrees };
  },
};

export type PlatesBenchPage = typeof platesBench;
(window as unknown as { platesBench: PlatesBenchPage }).platesBench = platesBench;
