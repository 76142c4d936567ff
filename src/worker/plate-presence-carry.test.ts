import { describe, expect, it } from 'vitest';
import { buildPresence, carryPresenceSteps } from './plate-presence';
import { emptySegment, rebuildSegmentSteps, type PlateSegment, type SegmentAdditions, type SlotMoves } from './plate-segment';
import { finishNow } from './yield';

/** A small deterministic generator (the property tests have their own; this one only needs variety). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
}

const CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-É';

function additions(next: () => number, keys: number[]): SegmentAdditions {
  const sorted = [...new Set(keys)].sort((a, b) => a - b);
  const plates = sorted.map(() => {
    // Mostly cell-sized plates; some too long for a cell (overflow), some with a character outside A–Z/0–9.
    const length = next() < 0.1 ? 9 + Math.floor(next() * 4) : 1 + Math.floor(next() * 8);
    return Array.from({ length }, () => CHARACTERS[Math.floor(next() * CHARACTERS.length)]).join('');
  });
  return {
    keys: Float64Array.from(sorted),
    plates,
    locationIds: Uint32Array.from(sorted, () => 1),
    expiresAt: Uint32Array.from(sorted, () => 0),
  };
}

describe('presence bitmaps carried over a rebuild', () => {
  it('equal the bitmaps built afresh, through additions, replacements and drops of every size', () => {
    const next = random(7);
    let segment: PlateSegment = emptySegment();
    segment.presence = buildPresence(segment);
    let nextKey = 1;
    let compared = 0;
    for (let step = 0; step < 60; step++) {
      const size = segment.keys.length;
      // Some steps drop base slots (as a purge or a replacement does), some add keys past or among the held ones.
      let drop: Uint8Array | null = null;
      if (size > 0 && next() < 0.5) {
        drop = new Uint8Array(size);
        const share = next() < 0.2 ? 0.9 : 0.05;
        for (let slot = 0; slot < size; slot++) if (next() < share) drop[slot] = 1;
      }
      const count = Math.floor(next() * (step % 7 === 0 ? 700 : 90));
      const keys = Array.from({ length: count }, () => (next() < 0.3 ? 1 + Math.floor(next() * nextKey * 2) : nextKey++ * 2));
      const held = new Set(segment.keys);
      const added = additions(next, keys.filter((key) => !held.has(key) || drop !== null));
      // Keys already held must be dropped from the base when added again (PlateIndex.upsert does so).
      if (drop === null && added.keys.some((key) => held.has(key))) continue;
      if (drop !== null) {
        segment.keys.forEach((key, slot) => {
          if (added.keys.includes(key)) drop[slot] = 1;
        });
      }
      const moves: SlotMoves = { runs: [], added: [] };
      const rebuilt = finishNow(rebuildSegmentSteps(segment, drop, added, moves));
      const carried = finishNow(carryPresenceSteps(segment.presence!, size, rebuilt, moves));
      expect(carried).toEqual(buildPresence(rebuilt));
      compared++;
      rebuilt.presence = carried;
      segment = rebuilt;
    }
    expect(compared).toBeGreaterThan(40);
    expect(segment.keys.length).toBeGreaterThan(500);
  });
});
