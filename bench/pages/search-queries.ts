import type { PlateMatchQuery } from '../../src/worker/plate-index';

/** One query of the fixed mix; `nowSeconds` is added when it runs. */
export interface BenchQuery {
  text: string;
  locationId?: number;
  pages?: PlateMatchQuery['pages'];
  /** Where it came from: a substring of a stored plate, or a random string (usually a miss). */
  kind: 'substring' | 'random';
}

export interface SampledPlate {
  plate: string;
  locationId: number;
}

const PLATE_SYMBOLS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** mulberry32: small and fast; the same seed gives the same sequence everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The fixed query mix: for each length 1–7, 16 substrings of stored plates (half typed in lower case, a third
 * limited to the plate's location, two asking for a later page in every category) and 4 random strings of plate
 * symbols (mostly misses from 4 characters on). 140 queries; the same sample and seed give the same mix.
 */
export function buildQueryMix(sample: readonly SampledPlate[], seed: number): BenchQuery[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const queries: BenchQuery[] = [];
  for (let length = 1; length <= 7; length++) {
    for (let i = 0; i < 16; i++) {
      const { plate, locationId } = pick(sample);
      const start = Math.floor(random() * Math.max(1, plate.length - length + 1));
      const cut = plate.slice(start, start + length);
      const query: BenchQuery = { text: i % 2 === 0 ? cut.toLowerCase() : cut, kind: 'substring' };
      if (i % 3 === 0) query.locationId = locationId;
      if (i === 5 || i === 11) {
        const page = 1 + Math.floor(random() * 3);
        query.pages = { valid: page, expired: page, spothero: page, parkwhiz: page, monthly_parkers: page };
      }
      queries.push(query);
    }
    for (let i = 0; i < 4; i++) {
      let text = '';
      for (let c = 0; c < length; c++) text += pick(PLATE_SYMBOLS.split(''));
      queries.push({ text, kind: 'random' });
    }
  }
  return queries;
}
