import { describe, expect, it } from 'vitest';
import type { PlateRead } from './plate-reader-api';
import { agreed, settled, UNSURE_BELOW } from './read-agreement';

const read = (text: string, confidences: number[] = [...text].map(() => 95)): PlateRead => ({
  text,
  characters: [...text].map((char, index) => ({ char, confidence: confidences[index]! })),
  ocrMs: 1,
  totalMs: 1,
});

describe('settling on a read', () => {
  it('needs two consecutive reads that agree', () => {
    expect(agreed(null, read('7ABC123'))).toBeNull();
    expect(agreed(read('7ABC128'), read('7ABC123'))).toBeNull();
    expect(agreed(read('7ABC123'), read('7ABC123'))).toEqual({ plate: '7ABC123', unsure: [] });
  });

  it('never settles on what cannot be a plate', () => {
    expect(agreed(read('A'), read('A'))).toBeNull();
    expect(agreed(read('ABCDEFGHJ'), read('ABCDEFGHJ'))).toBeNull();
  });

  it('marks a character either read was unsure of', () => {
    const low = UNSURE_BELOW - 1;
    const first = read('8XY123', [low, 95, 95, 95, 95, 95]);
    const second = read('8XY123', [95, 95, 95, 95, 95, low]);
    expect(agreed(first, second)?.unsure).toEqual([0, 5]);
  });

  it('takes a tapped read on its own, doubtful characters marked', () => {
    expect(settled(read('4BZ', [90, UNSURE_BELOW - 10, 90]))).toEqual({ plate: '4BZ', unsure: [1] });
  });
});
