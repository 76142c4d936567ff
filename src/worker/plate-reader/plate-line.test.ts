import { describe, expect, it } from 'vitest';
import type { RgbaImage } from './grey-image';
import { CHARACTER_HEIGHT, plateLine } from './plate-line';
import { inSlots } from './plate-reader-engine';

/** A rectangle outline (a character's stand-in, like a 0), in box pixels before the tilt. */
interface Outline {
  x: number;
  y: number;
  w: number;
  h: number;
  stroke: number;
}

/**
 * A 480 × 180 box, white, with dark outlines drawn by hand, the whole turned by `tiltDegrees` about the centre
 * (y down: positive slopes down to the right), as a camera held askew would see it.
 */
function box(outlines: readonly Outline[], tiltDegrees = 0): RgbaImage {
  const width = 480;
  const height = 180;
  const data = new Uint8Array(width * height * 4).fill(255);
  const radians = (tiltDegrees * Math.PI) / 180;
  const cos = Math.cos(radians);
  const sin = Math.sin(radians);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      // Where this pixel was before the turn.
      const dx = x - width / 2;
      const dy = y - height / 2;
      const ux = cos * dx + sin * dy + width / 2;
      const uy = -sin * dx + cos * dy + height / 2;
      const inked = outlines.some(
        (o) => ux >= o.x && ux < o.x + o.w && uy >= o.y && uy < o.y + o.h && (ux < o.x + o.stroke || ux >= o.x + o.w - o.stroke || uy < o.y + o.stroke || uy >= o.y + o.h - o.stroke),
      );
      if (inked) data.fill(30, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return { width, height, data };
}

/** Seven characters 70 px tall across the middle, and a state name of nine small ones above them. */
const characters: Outline[] = Array.from({ length: 7 }, (_, i) => ({ x: 110 + i * 38, y: 62, w: 30, h: 70, stroke: 8 }));
const stateName: Outline[] = Array.from({ length: 9 }, (_, i) => ({ x: 170 + i * 16, y: 28, w: 11, h: 18, stroke: 3 }));

describe('plateLine', () => {
  it('keeps the characters and drops the state name above them', () => {
    const line = plateLine(box([...characters, ...stateName]));
    expect(line.shapes).toBe(7);
    expect(line.slots).toHaveLength(7);
    expect(line.height).toBeGreaterThan(CHARACTER_HEIGHT);
    expect(Math.abs(line.skewDegrees)).toBeLessThan(1);
  });

  it.each([8, -12, 15])('finds a tilt of %d° to within 1°', (tilt) => {
    const line = plateLine(box([...characters, ...stateName], tilt));
    expect(line.shapes).toBe(7);
    expect(Math.abs(line.skewDegrees - tilt)).toBeLessThan(1);
  });

  it('gives no shapes for an empty box, or one of only small print', () => {
    expect(plateLine(box([])).shapes).toBe(0);
    expect(plateLine(box(stateName)).shapes).toBe(0);
  });

  it('hands each character over the same height, black on white', () => {
    const line = plateLine(box(characters, 6));
    const dark = line.data.filter((value) => value < 128).length;
    expect(dark).toBeGreaterThan(0);
    expect(dark).toBeLessThan(line.data.length / 2);
    for (const slot of line.slots) expect(slot.right).toBeGreaterThan(slot.left);
  });
});

describe('inSlots', () => {
  const slots = [
    { left: 10, right: 30 },
    { left: 40, right: 60 },
    { left: 70, right: 90 },
  ];
  it('takes the surest symbol of a character read twice, and leaves a skipped one empty', () => {
    const read = inSlots(
      [
        { char: 'O', confidence: 60, left: 10, right: 20 },
        { char: '0', confidence: 90, left: 20, right: 30 },
        { char: 'B', confidence: 80, left: 41, right: 59 },
        { char: '1', confidence: 50, left: 63, right: 67 }, // between characters: no one's
      ],
      slots,
    );
    expect(read).toEqual([[{ char: '0', confidence: 90 }], [{ char: 'B', confidence: 80 }], []]);
  });

  it('keeps every symbol when there are no slots', () => {
    expect(inSlots([{ char: 'A', confidence: 70, left: 0, right: 5 }], [])).toEqual([[{ char: 'A', confidence: 70 }]]);
  });

  it('keeps both characters of a slot twice as wide as the others, in the order they stand', () => {
    // A bold K touching an X is one shape, so one slot; Tesseract reads both, each with a box over much of it.
    const wide = [...slots, { left: 100, right: 141 }, { left: 150, right: 170 }];
    const read = inSlots(
      [
        { char: 'A', confidence: 90, left: 10, right: 30 },
        { char: 'B', confidence: 90, left: 40, right: 60 },
        { char: 'C', confidence: 90, left: 70, right: 90 },
        { char: 'K', confidence: 95, left: 100, right: 141 },
        { char: 'X', confidence: 92, left: 121, right: 140 },
        { char: 'Y', confidence: 40, left: 110, right: 130 }, // a third, less sure, for a slot with room for two
        { char: 'D', confidence: 90, left: 150, right: 170 },
      ],
      wide,
    );
    expect(read.map((found) => found.map((c) => c.char).join(''))).toEqual(['A', 'B', 'C', 'KX', 'D']);
  });

  it('keeps one symbol in a slot only a little wider than the others (a W)', () => {
    const read = inSlots(
      [
        { char: 'V', confidence: 80, left: 10, right: 25 },
        { char: 'W', confidence: 90, left: 10, right: 40 },
      ],
      [{ left: 10, right: 40 }, ...slots.slice(1), { left: 100, right: 120 }],
    );
    expect(read[0]).toEqual([{ char: 'W', confidence: 90 }]);
  });
});
