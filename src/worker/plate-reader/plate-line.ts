import { contrastStretched, greyOf, resized, rotated, scaledToHeight, type GreyImage, type RgbaImage } from './grey-image';

/**
 * Plate-shaped preprocessing (docs/decisions/0100): from the guide box's pixels to one line of dark characters on
 * white, the shape Tesseract reads best. Grey and contrast-stretched; binarised against the local brightness (a glare
 * spot or a shadow across half the plate moves the threshold with it); the characters found as the largest group of
 * similar shapes whose centres lie on one straight line (up to ±MAX_SKEW_DEGREES: the state's name, the slogan,
 * stickers, bolts and the rim fall outside it), the box turned straight by that line's slope and the characters found
 * again; then each character alone, scaled to one height and set at an even gap (a plate seen at an angle, its near
 * side taller, reads as one size), with its columns (`slots`) so the reader can set Tesseract's symbols against them.
 * Measured choices: docs/decisions/0101, "Plates".
 */

/** Rows the box is brought to before anything else: characters then stand 40–60 px tall. */
export const WORK_HEIGHT = 120;
export const MAX_SKEW_DEGREES = 16;
/** Characters Tesseract is given stand this tall (it reads best at 30–60 px). */
export const CHARACTER_HEIGHT = 48;
const PADDING = 12;
/** The gap set between characters, as a share of their height. */
const GAP_SHARE = 0.18;
/** Characters are widened by this much: plate lettering is narrower than the print Tesseract's model learnt. */
const WIDEN = 1.3;
/** Strokes have insides: a shape nearly all edge is grain or speckle (a dark, noisy surround at night), no character. */
const MAX_EDGE_SHARE = 0.8;
/** The least height of a character, as a share of the work height. */
const MIN_CHARACTER_SHARE = 0.22;

export interface PlateLine extends GreyImage {
  /** How many character-like shapes were kept: 0 means nothing plate-like was in the box. */
  shapes: number;
  /** The plate's tilt in the box (degrees, y-down: positive slopes down to the right); the line was turned back by it. */
  skewDegrees: number;
  /** Each kept character's columns in the image (left to right, inclusive), in order. */
  slots: Slot[];
}

export interface Slot {
  left: number;
  right: number;
}

export function plateLine(frame: RgbaImage): PlateLine {
  const grey = contrastStretched(scaledToHeight(greyOf(frame), WORK_HEIGHT));
  // The line's slope from the characters found in the box at half size (a quarter of the work), then the characters
  // again at full size in the box turned straight by it.
  const half = resized(grey, Math.max(1, Math.round(grey.width / 2)), Math.round(grey.height / 2));
  const rough = characterShapes(shapesOf(inkMask(half), half.width, half.height), half.width, half.height);
  const skewDegrees = rough.length >= 3 ? slopeDegrees(rough) : 0;
  const straight = Math.abs(skewDegrees) >= 0.5 ? rotated(grey, -skewDegrees) : grey;
  const labelled = shapesOf(inkMask(straight), straight.width, straight.height);
  let kept = characterShapes(labelled, straight.width, straight.height);
  if (kept.length === 0) return { width: 1, height: 1, data: new Uint8Array([255]), shapes: 0, skewDegrees, slots: [] };
  kept = withGapsFilled(labelled, grey.width, kept);
  return { ...lineImage(labelled, grey.width, kept), shapes: kept.length, skewDegrees };
}

/** 1 where a pixel is darker than its neighbourhood's mean by a margin (Bradley's adaptive threshold). */
export function inkMask(image: GreyImage): Uint8Array {
  const { width, height, data } = image;
  // Sums of at most 255 × 120 × 700 or so: integers (an Int32Array is exact to 2^31).
  const stride = width + 1;
  const integral = new Int32Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += data[y * width + x]!;
      integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1]! + row;
    }
  }
  // A window of about two thirds of a character's height: it holds a stroke and its background, and is narrow
  // enough that the edge of a shadow or a glare spot darkens little beside it (a third of the height read worse).
  const half = Math.max(2, Math.round(height / 8));
  const ink = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - half);
    const y1 = Math.min(height, y + half + 1);
    const top = y0 * stride;
    const bottom = y1 * stride;
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - half);
      const x1 = Math.min(width, x + half + 1);
      const sum = integral[bottom + x1]! - integral[top + x1]! - integral[bottom + x0]! + integral[top + x0]!;
      // value < mean × 0.85, in integers
      ink[y * width + x] = data[y * width + x]! * (x1 - x0) * (y1 - y0) * 100 < sum * 85 ? 1 : 0;
    }
  }
  return ink;
}

/** The slope (degrees, y-down) of the least-squares line through the shapes' centres. */
function slopeDegrees(shapes: readonly Shape[]): number {
  const xs = shapes.map((s) => (s.left + s.right) / 2);
  const ys = shapes.map((s) => (s.top + s.bottom) / 2);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (sxx === 0) return 0;
  const degrees = (Math.atan(sxy / sxx) * 180) / Math.PI;
  return Math.max(-MAX_SKEW_DEGREES, Math.min(MAX_SKEW_DEGREES, degrees));
}

interface Shape {
  /** Its number in the label image (1-based). */
  label: number;
  left: number;
  top: number;
  right: number;
  bottom: number;
  area: number;
  /** Its pixels with a non-ink pixel left, right, above or below. */
  edge: number;
}

interface Labelled {
  shapes: Shape[];
  /** Per pixel: the shape it belongs to (1-based), 0 for no ink. */
  labels: Int32Array;
}

/** Connected runs of ink (8-neighbours), each with its box and area, and the label image. */
function shapesOf(ink: Uint8Array, width: number, height: number): Labelled {
  // Labelled on a copy with a blank border one pixel wide: the eight neighbours of any pixel need no bounds checks.
  const stride = width + 2;
  const padded = new Int32Array(stride * (height + 2)); // -1 ink not yet labelled, 0 none, n > 0 shape n
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (ink[y * width + x] === 1) padded[(y + 1) * stride + x + 1] = -1;
  const around = [-stride - 1, -stride, -stride + 1, -1, 1, stride - 1, stride, stride + 1];
  const shapes: Shape[] = [];
  const stack = new Int32Array(width * height);
  for (let start = 0; start < padded.length; start++) {
    if (padded[start] !== -1) continue;
    const label = shapes.length + 1;
    let left = stride;
    let right = -1;
    let top = height + 2;
    let bottom = -1;
    let area = 0;
    let edge = 0;
    padded[start] = label;
    let depth = 0;
    stack[depth++] = start;
    while (depth > 0) {
      const at = stack[--depth]!;
      area++;
      if (padded[at - 1] === 0 || padded[at + 1] === 0 || padded[at - stride] === 0 || padded[at + stride] === 0) edge++;
      const x = at % stride;
      const y = (at - x) / stride;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let k = 0; k < 8; k++) {
        const next = at + around[k]!;
        if (padded[next] === -1) {
          padded[next] = label;
          stack[depth++] = next;
        }
      }
    }
    shapes.push({ label, left: left - 1, top: top - 1, right: right - 1, bottom: bottom - 1, area, edge });
  }
  const labels = new Int32Array(width * height);
  for (let y = 0; y < height; y++) labels.set(padded.subarray((y + 1) * stride + 1, (y + 1) * stride + 1 + width), y * width);
  return { shapes, labels };
}

/**
 * The plate's characters: shapes of a character's proportions (or a few run together) not touching the box's edge,
 * and among those the largest group of similar height whose centres lie on one straight line of up to
 * ±MAX_SKEW_DEGREES (the plate's tilt): the state's name, the slogan, stickers, bolts and the rim fall outside it.
 */
function characterShapes({ shapes }: Labelled, width: number, height: number): Shape[] {
  const candidates = shapes.filter((shape) => {
    const w = shape.right - shape.left + 1;
    const h = shape.bottom - shape.top + 1;
    const touchesEdge = shape.left === 0 || shape.top === 0 || shape.right === width - 1 || shape.bottom === height - 1;
    return !touchesEdge && h >= height * MIN_CHARACTER_SHARE && h <= height * 0.9 && w <= h * 3 && w >= h * 0.08 && shape.area >= h * 1.5 && shape.edge <= shape.area * MAX_EDGE_SHARE;
  });
  const centreX = candidates.map((s) => (s.left + s.right) / 2);
  const centreY = candidates.map((s) => (s.top + s.bottom) / 2);
  const heights = candidates.map((s) => s.bottom - s.top + 1);
  const slopes: number[] = [];
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 2) slopes.push(Math.tan((degrees * Math.PI) / 180));
  let best: number[] = [];
  let bestHeight = 0;
  for (let a = 0; a < candidates.length; a++) {
    const h = heights[a]!;
    for (const slope of slopes) {
      const group: number[] = [];
      let total = 0;
      for (let i = 0; i < candidates.length; i++) {
        const expected = centreY[a]! + slope * (centreX[i]! - centreX[a]!);
        if (Math.abs(heights[i]! - h) <= h * 0.3 && Math.abs(centreY[i]! - expected) <= h * 0.25) {
          group.push(i);
          total += heights[i]!;
        }
      }
      if (group.length > best.length || (group.length === best.length && total > bestHeight)) [best, bestHeight] = [group, total];
    }
  }
  const line = best.map((i) => candidates[i]!).sort((a, b) => a.left - b.left);
  // Then what only looks like one of them: a height far from the others' (the rim's side beside the first character),
  // or at either end a sliver narrower than any plate character (the rim again: a plate's 1 has a flag or a foot).
  const sorted = line.map((s) => s.bottom - s.top + 1).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  // A J or a comma-tailed letter may reach lower than the rest: taller is allowed further than shorter.
  const kept = line.filter((s) => s.bottom - s.top + 1 >= median * 0.8 && s.bottom - s.top + 1 <= median * 1.35);
  const bar = (s: Shape) => s.right - s.left + 1 < (s.bottom - s.top + 1) * 0.22;
  while (kept.length > 2 && bar(kept[0]!)) kept.shift();
  while (kept.length > 2 && bar(kept.at(-1)!)) kept.pop();
  return kept;
}

/**
 * A character broken into pieces (by glare, a shadow's edge, dirt) is no character-like shape and leaves a hole in
 * the line, one character wide or more. Where the gap between two kept characters is that wide and holds ink of a
 * character's height, the ink in it becomes one more character (the line image takes any ink of no kept shape in its
 * box). A plate's dash or its emblem between groups is too short to count.
 */
function withGapsFilled({ labels }: Labelled, width: number, kept: readonly Shape[]): Shape[] {
  if (kept.length < 3) return [...kept];
  const middle = (s: Shape) => (s.left + s.right) / 2;
  const pitches = kept.slice(1).map((s, i) => middle(s) - middle(kept[i]!)).sort((a, b) => a - b);
  const pitch = pitches[Math.floor(pitches.length / 2)]!;
  const heights = kept.map((s) => s.bottom - s.top + 1).sort((a, b) => a - b);
  const h = heights[Math.floor(heights.length / 2)]!;
  const keptLabels = new Set(kept.map((s) => s.label));
  const out: Shape[] = [kept[0]!];
  for (let i = 1; i < kept.length; i++) {
    const before = kept[i - 1]!;
    const after = kept[i]!;
    if (middle(after) - middle(before) >= pitch * 1.7) {
      const top = Math.max(0, Math.min(before.top, after.top) - Math.round(h * 0.1));
      const bottom = Math.max(before.bottom, after.bottom) + Math.round(h * 0.1);
      const found: Shape = { label: -1, left: after.left, top: bottom, right: before.right, bottom: top, area: 0, edge: 0 };
      for (let y = top; y <= bottom && y * width < labels.length; y++) {
        for (let x = before.right + 2; x <= after.left - 2; x++) {
          const label = labels[y * width + x]!;
          if (label === 0 || keptLabels.has(label)) continue;
          found.area++;
          if (x < found.left) found.left = x;
          if (x > found.right) found.right = x;
          if (y < found.top) found.top = y;
          if (y > found.bottom) found.bottom = y;
        }
      }
      const fh = found.bottom - found.top + 1;
      const fw = found.right - found.left + 1;
      if (found.area > 0 && fh >= h * 0.6 && fw >= h * 0.15 && fw <= h * 1.2 && found.area >= fh * 1.5) out.push(found);
    }
    out.push(after);
  }
  return out;
}

/**
 * The kept shapes alone, black on white, each scaled to CHARACTER_HEIGHT (so a plate seen at an angle, its near side
 * taller, reads as one size) and set side by side at an even gap, padded. Small bits of ink inside a character's box
 * (a stroke broken by glare or dirt) come with it.
 */
function lineImage({ labels }: Labelled, width: number, shapes: readonly Shape[]): GreyImage & { slots: Slot[] } {
  const gap = Math.round(CHARACTER_HEIGHT * GAP_SHARE);
  const kept = new Set(shapes.map((shape) => shape.label));
  const glyphs = shapes.map((shape) => {
    const w = shape.right - shape.left + 1;
    const h = shape.bottom - shape.top + 1;
    const crop = new Uint8Array(w * h).fill(255);
    for (let y = shape.top; y <= shape.bottom; y++) {
      for (let x = shape.left; x <= shape.right; x++) {
        // Its own ink and bits of no kept shape; not a neighbour's serif reaching into its box.
        const label = labels[y * width + x]!;
        if (label === shape.label || (label !== 0 && !kept.has(label))) crop[(y - shape.top) * w + (x - shape.left)] = 0;
      }
    }
    return resized({ width: w, height: h, data: crop }, Math.max(1, Math.round((w * CHARACTER_HEIGHT * WIDEN) / h)), CHARACTER_HEIGHT);
  });
  const outWidth = glyphs.reduce((sum, g) => sum + g.width, 0) + gap * (glyphs.length - 1) + 2 * PADDING;
  const outHeight = CHARACTER_HEIGHT + 2 * PADDING;
  const out = new Uint8Array(outWidth * outHeight).fill(255);
  let left = PADDING;
  const slots: Slot[] = [];
  for (const glyph of glyphs) {
    for (let y = 0; y < glyph.height; y++) out.set(glyph.data.subarray(y * glyph.width, (y + 1) * glyph.width), (y + PADDING) * outWidth + left);
    slots.push({ left, right: left + glyph.width - 1 });
    left += glyph.width + gap;
  }
  return { width: outWidth, height: outHeight, data: out, slots };
}

/** One character of the line, alone, padded as the line is (to read it again on its own). */
export function slotImage(line: GreyImage, slot: Slot): GreyImage {
  const left = Math.max(0, slot.left - PADDING);
  const right = Math.min(line.width - 1, slot.right + PADDING);
  const width = right - left + 1;
  const data = new Uint8Array(width * line.height);
  for (let y = 0; y < line.height; y++) data.set(line.data.subarray(y * line.width + left, y * line.width + right + 1), y * width);
  return { width, height: line.height, data };
}

/** A binary PGM (P5): Leptonica, under Tesseract, reads it with no decoding cost. */
export function pgmBytes(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const bytes = new Uint8Array(header.length + image.data.length);
  bytes.set(header);
  bytes.set(image.data, header.length);
  return bytes;
}
