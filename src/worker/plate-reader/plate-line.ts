import { contrastStretched, greyOf, rotated, scaledToHeight, type GreyImage, type RgbaImage } from './grey-image';

/**
 * Plate-shaped preprocessing (docs/decisions/0100): from the guide box's pixels to one line of dark characters on
 * white, the shape Tesseract reads best. Grey and contrast-stretched; binarised against the local brightness (a glare
 * spot or a shadow across half the plate moves the threshold with it); turned straight by the angle whose rows of ink
 * are the most sharply separated (up to ±MAX_SKEW_DEGREES); then only the tallest run of similar, side-by-side shapes
 * is kept, which drops the state's name, the slogan, stickers, bolts and the frame.
 */

/** Rows the box is brought to before anything else: characters then stand 40–70 px tall. */
export const WORK_HEIGHT = 120;
export const MAX_SKEW_DEGREES = 16;
/** Characters Tesseract is given stand this tall (it reads best at 30–60 px). */
export const CHARACTER_HEIGHT = 48;
const PADDING = 12;

export interface PlateLine extends GreyImage {
  /** How many character-like shapes were kept: 0 means nothing plate-like was in the box. */
  shapes: number;
  /** The plate's tilt in the box (degrees, y-down: positive slopes down to the right); the line was turned back by it. */
  skewDegrees: number;
}

export function plateLine(frame: RgbaImage): PlateLine {
  const grey = contrastStretched(scaledToHeight(greyOf(frame), WORK_HEIGHT));
  const skewDegrees = skewOf(inkMask(grey), grey.width);
  const straight = rotated(grey, -skewDegrees);
  const ink = inkMask(straight);
  const kept = characterShapes(ink, straight.width, straight.height);
  if (kept.length === 0) return { width: 1, height: 1, data: new Uint8Array([255]), shapes: 0, skewDegrees };
  return { ...lineImage(ink, straight.width, kept), shapes: kept.length, skewDegrees };
}

/** 1 where a pixel is darker than its neighbourhood's mean by a margin (Bradley's adaptive threshold). */
export function inkMask(image: GreyImage): Uint8Array {
  const { width, height, data } = image;
  const integral = new Float64Array((width + 1) * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x]!;
      integral[(y + 1) * (width + 1) + x + 1] = integral[y * (width + 1) + x + 1]! + row;
    }
  }
  // A window about half a character tall: wide enough to hold a stroke and its background.
  const half = Math.max(4, Math.round(height / 6));
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const sum =
        integral[y1 * (width + 1) + x1]! - integral[y0 * (width + 1) + x1]! - integral[y1 * (width + 1) + x0]! + integral[y0 * (width + 1) + x0]!;
      const mean = sum / ((x1 - x0) * (y1 - y0));
      ink[y * width + x] = data[y * width + x]! < mean * 0.85 ? 1 : 0;
    }
  }
  return ink;
}

/** The angle (degrees) at which the ink's rows are most concentrated: the plate's own tilt. */
function skewOf(ink: Uint8Array, width: number): number {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < ink.length; i++) {
    if (ink[i] === 1) {
      xs.push((i % width) - width / 2);
      ys.push(Math.floor(i / width) - WORK_HEIGHT / 2);
    }
  }
  if (xs.length < 20) return 0;
  const score = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    const bins = new Float64Array(WORK_HEIGHT * 3);
    for (let i = 0; i < xs.length; i++) {
      const row = Math.round(-sin * xs[i]! + cos * ys[i]! + bins.length / 2);
      if (row >= 0 && row < bins.length) bins[row]!++;
    }
    let sum = 0;
    for (const count of bins) sum += count * count;
    return sum;
  };
  let best = 0;
  let bestScore = score(0);
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 1) {
    const s = score(degrees);
    if (s > bestScore) [best, bestScore] = [degrees, s];
  }
  const coarse = best;
  for (let degrees = coarse - 0.75; degrees <= coarse + 0.75; degrees += 0.25) {
    const s = score(degrees);
    if (s > bestScore) [best, bestScore] = [degrees, s];
  }
  // The rows of ink slope by the plate's tilt (y growing with x for a positive one); plateLine turns back by it.
  return best;
}

interface Shape {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number[];
}

/** Connected runs of ink (8-neighbours), each with its box. */
function shapesOf(ink: Uint8Array, width: number, height: number): Shape[] {
  const seen = new Uint8Array(ink.length);
  const shapes: Shape[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (ink[start] !== 1 || seen[start] === 1) continue;
    const shape: Shape = { left: width, top: height, right: -1, bottom: -1, pixels: [] };
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop()!;
      shape.pixels.push(at);
      const x = at % width;
      const y = (at - x) / width;
      if (x < shape.left) shape.left = x;
      if (x > shape.right) shape.right = x;
      if (y < shape.top) shape.top = y;
      if (y > shape.bottom) shape.bottom = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const next = ny * width + nx;
          if (ink[next] === 1 && seen[next] === 0) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    shapes.push(shape);
  }
  return shapes;
}

/**
 * The plate's characters: shapes of a character's proportions, not touching the box's edge, and among those the
 * largest group of similar height standing on one line.
 */
function characterShapes(ink: Uint8Array, width: number, height: number): Shape[] {
  const candidates = shapesOf(ink, width, height).filter((shape) => {
    const w = shape.right - shape.left + 1;
    const h = shape.bottom - shape.top + 1;
    const touchesEdge = shape.left === 0 || shape.top === 0 || shape.right === width - 1 || shape.bottom === height - 1;
    // Wide shapes stay: characters of a bold, tightly set plate font touch and make one shape (KX as one).
    return !touchesEdge && h >= height * 0.25 && h <= height * 0.95 && w <= h * 4 && shape.pixels.length >= h * 1.5;
  });
  let best: Shape[] = [];
  for (const anchor of candidates) {
    const h = anchor.bottom - anchor.top + 1;
    const middle = (anchor.top + anchor.bottom) / 2;
    const group = candidates.filter((shape) => {
      const sh = shape.bottom - shape.top + 1;
      const sm = (shape.top + shape.bottom) / 2;
      return Math.abs(sh - h) <= h * 0.25 && Math.abs(sm - middle) <= h * 0.3;
    });
    const tallest = (shapes: Shape[]) => shapes.reduce((sum, shape) => sum + shape.bottom - shape.top, 0);
    if (group.length > best.length || (group.length === best.length && tallest(group) > tallest(best))) best = group;
  }
  return best.sort((a, b) => a.left - b.left);
}

/** The kept shapes alone, black on white, scaled to CHARACTER_HEIGHT and padded. */
function lineImage(ink: Uint8Array, width: number, shapes: Shape[]): GreyImage {
  const top = Math.min(...shapes.map((s) => s.top));
  const bottom = Math.max(...shapes.map((s) => s.bottom));
  const left = Math.min(...shapes.map((s) => s.left));
  const right = Math.max(...shapes.map((s) => s.right));
  const w = right - left + 1;
  const h = bottom - top + 1;
  const crop = new Uint8Array(w * h).fill(255);
  for (const shape of shapes) {
    for (const at of shape.pixels) {
      const x = at % width;
      const y = (at - x) / width;
      crop[(y - top) * w + (x - left)] = 0;
    }
  }
  const scaled = scaledToHeight({ width: w, height: h, data: crop }, CHARACTER_HEIGHT);
  const out = new Uint8Array((scaled.width + 2 * PADDING) * (scaled.height + 2 * PADDING)).fill(255);
  const outWidth = scaled.width + 2 * PADDING;
  for (let y = 0; y < scaled.height; y++) out.set(scaled.data.subarray(y * scaled.width, (y + 1) * scaled.width), (y + PADDING) * outWidth + PADDING);
  return { width: outWidth, height: scaled.height + 2 * PADDING, data: out };
}

/** A binary PGM (P5): Leptonica, under Tesseract, reads it with no decoding cost. */
export function pgmBytes(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const bytes = new Uint8Array(header.length + image.data.length);
  bytes.set(header);
  bytes.set(image.data, header.length);
  return bytes;
}
