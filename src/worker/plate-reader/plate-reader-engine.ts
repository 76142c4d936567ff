import { createWorker, OEM, PSM, type ImageLike, type Page, type Worker as TesseractWorker } from 'tesseract.js';
import { simd } from 'wasm-feature-detect';
import { OCR_ASSETS_DIR } from './ocr-assets';
import { WORK_HEIGHT, pgmBytes, plateLine, slotImage, type Slot } from './plate-line';
import type { PlateReaderApi, ReadCharacter } from './plate-reader-api';
import type { GreyImage, RgbaImage } from './grey-image';

/** A character read with less confidence than this (of 100) in the line is read again on its own. */
export const REREAD_BELOW = 70;

/** Plates carry capital letters and digits only; the model is told so, and reads nothing else. */
export const PLATE_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The reader's work, apart from the worker that exposes it: preprocessing (plate-line.ts) and Tesseract, itself in a
 * worker of its own, started on the first read. `assetsBase` is the origin's root (the files of OCR_ASSETS_DIR).
 */
export function createPlateReader(assetsBase: string, now: () => number = () => performance.now()): PlateReaderApi {
  let engine: Promise<TesseractWorker> | null = null;
  const start = async () => {
    const dir = new URL(`${OCR_ASSETS_DIR}/`, assetsBase).href;
    const core = (await simd()) ? 'tesseract-core-simd-lstm.js' : 'tesseract-core-lstm.js';
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      workerPath: `${dir}worker.min.js`,
      corePath: `${dir}${core}`,
      langPath: dir.replace(/\/$/, ''),
      // The service worker keeps the files; Tesseract's own IndexedDB copy of the model would be a second one.
      cacheMethod: 'none',
      // A blob: worker would need `blob:` in the CSP's script-src; the file is on our origin anyway.
      workerBlobURL: false,
      gzip: true,
    });
    await worker.setParameters({
      tessedit_char_whitelist: PLATE_CHARACTERS,
      tessedit_pageseg_mode: PSM.SINGLE_LINE,
      // plate-line.ts hands over characters 48 px tall; without a resolution Tesseract guesses one and warns.
      user_defined_dpi: '300',
    });
    return worker;
  };
  const ocr = () => {
    engine ??= start().catch((error: unknown) => {
      engine = null; // a later read tries again (the files may arrive once online)
      throw error;
    });
    return engine;
  };
  return {
    warmUp: async () => {
      await ocr();
    },
    read: async (frame) => {
      const started = now();
      const line = plateLine(rgbaOf(frame));
      if (line.shapes === 0) return { text: '', characters: [], ocrMs: 0, totalMs: now() - started };
      const tesseract = await ocr();
      const ocrStarted = now();
      // The image's bytes as they are (its browser loadImage passes any byte array on to Leptonica; the types name
      // only Node's Buffer).
      const recognize = async (image: GreyImage) =>
        symbolsOf((await tesseract.recognize(pgmBytes(image) as unknown as ImageLike, {}, { text: false, blocks: true })).data);
      const aligned = inSlots(await recognize(line), line.slots);
      // A character the line's read skipped, or was unsure of, is read again on its own; the surer read stands. So is
      // every I: the model's answer for a J (and a first Z) in plate lettering, and a letter few states issue.
      // Characters run together into one slot stand as the line's read gave them: alone, the slot reads as one.
      for (const [index, found] of aligned.entries()) {
        if (found.length > 1) continue;
        const [first] = found;
        if (first !== undefined && first.confidence >= REREAD_BELOW && first.char !== 'I') continue;
        const alone = await recognize(slotImage(line, line.slots[index]!));
        const best = alone.reduce<ReadCharacter | null>((top, s) => (top === null || s.confidence > top.confidence ? s : top), null);
        if (best !== null && (first === undefined || best.confidence > first.confidence)) aligned[index] = [{ char: best.char, confidence: best.confidence }];
      }
      const ocrMs = now() - ocrStarted;
      const characters = aligned.flat();
      return { text: characters.map((c) => c.char).join(''), characters, ocrMs, totalMs: now() - started };
    },
  };
}

/**
 * The frame's pixels. An ImageBitmap is drawn at WORK_HEIGHT rows (the canvas scales it, far cheaper than reading
 * every pixel of a camera crop and scaling it here), then closed.
 */
function rgbaOf(frame: ImageBitmap | ImageData | RgbaImage): RgbaImage {
  if (!(typeof ImageBitmap !== 'undefined' && frame instanceof ImageBitmap)) return frame as RgbaImage;
  const height = Math.min(frame.height, WORK_HEIGHT);
  const width = Math.max(1, Math.round((frame.width * height) / frame.height));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.imageSmoothingQuality = 'medium';
  context.drawImage(frame, 0, 0, width, height);
  frame.close();
  return context.getImageData(0, 0, width, height);
}

/** A symbol Tesseract read: a plate character, its confidence and its columns in the image. */
export interface ReadSymbol extends ReadCharacter {
  left: number;
  right: number;
}

/** Every symbol Tesseract read, in order, that is a plate character. */
export function symbolsOf(page: Pick<Page, 'blocks'>): ReadSymbol[] {
  const symbols: ReadSymbol[] = [];
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines)
        for (const word of line.words)
          for (const symbol of word.symbols) {
            for (const char of symbol.text.toUpperCase()) {
              if (PLATE_CHARACTERS.includes(char)) symbols.push({ char, confidence: symbol.confidence, left: symbol.bbox.x0, right: symbol.bbox.x1 });
            }
          }
  return symbols;
}

/**
 * A slot this many times the line's median slot width is characters run together (a bold K touching an X: one shape
 * to plate-line.ts), as many as it has room for; one plate character is never this wide beside the others.
 */
export const RUN_TOGETHER_WIDTH = 1.75;

/**
 * The read set against the characters plate-line.ts found, per slot: the most confident symbol whose middle lies in it
 * (the model sometimes reads one wide character twice, "0" as "O0"), or none (it skipped one). A slot of characters
 * run together keeps up to as many symbols as it has room for, the most confident, in the order they stand (Tesseract
 * reads both, but gives each a box over much of the slot). Symbols in no slot (between characters) are dropped.
 * Without slots each symbol stands as read, a slot of its own.
 */
export function inSlots(symbols: readonly ReadSymbol[], slots: readonly Slot[]): ReadCharacter[][] {
  const character = ({ char, confidence }: ReadSymbol): ReadCharacter => ({ char, confidence });
  if (slots.length === 0) return symbols.map((symbol) => [character(symbol)]);
  const middle = (s: { left: number; right: number }) => (s.left + s.right) / 2;
  const widths = slots.map((slot) => slot.right - slot.left + 1).sort((a, b) => a - b);
  const typical = widths[Math.floor(widths.length / 2)]!;
  return slots.map((slot) => {
    const width = slot.right - slot.left + 1;
    const room = slots.length >= 3 && width >= typical * RUN_TOGETHER_WIDTH ? Math.round(width / typical) : 1;
    const inside = symbols.filter((symbol) => middle(symbol) >= slot.left - 1 && middle(symbol) <= slot.right + 1);
    const surest = [...inside].sort((a, b) => b.confidence - a.confidence).slice(0, room);
    return surest.sort((a, b) => middle(a) - middle(b)).map(character);
  });
}
