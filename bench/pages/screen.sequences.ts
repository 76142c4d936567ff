import { createRandom } from '../../server/db/seed/prng';

/**
 * The screen bench's fixed typing mix: what an officer types into the "License plate" field, key by key. Built from
 * the plates the officer's store holds (so hits are hits) with a fixed seed: the same data gives the same keys.
 */

export type SequenceKind = 'plate' | 'correction' | 'random' | 'similar' | 'middle' | 'typo';

export interface TypingSequence {
  kind: SequenceKind;
  /** What is typed, in words (for the report). */
  description: string;
  /** Playwright key names: one character each, or "Backspace". */
  keys: string[];
}

/** What each kind is, for the report. */
export const SEQUENCE_KINDS: Record<SequenceKind, string> = {
  plate: 'a stored plate, typed in full',
  correction: 'a stored plate, two backspaces, the two characters again',
  random: 'seven random characters (misses from about four on), three backspaces',
  similar: 'a stored plate with one character typed as its look-alike (O/0, I/1, S/5, B/8, Z/2, G/6)',
  middle: 'five characters from inside a stored plate, in lower case',
  typo: 'a stored plate with a wrong character after the third, corrected with a backspace',
};

/** How many sequences of each kind the mix holds. */
export const MIX: Record<SequenceKind, number> = { plate: 6, correction: 3, random: 3, similar: 2, middle: 2, typo: 2 };

const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOOK_ALIKE: Record<string, string> = { O: '0', '0': 'O', I: '1', '1': 'I', S: '5', '5': 'S', B: '8', '8': 'B', Z: '2', '2': 'Z', G: '6', '6': 'G' };

/** The field's text after each key, as typed (before PlateSearch upper-cases it). */
export function textsAfterKeys(keys: readonly string[], start = ''): string[] {
  const texts: string[] = [];
  let text = start;
  for (const key of keys) {
    text = key === 'Backspace' ? text.slice(0, -1) : text + key;
    texts.push(text);
  }
  return texts;
}

/**
 * The mix (MIX sequences, about 150 keys) plus one warm-up sequence of the first kind, built from `plates` (upper
 * case, as stored). `stored(text)` says whether any stored plate contains `text` exactly: random strings and
 * look-alike plates are chosen so that their full text is not stored.
 */
export function buildTypingMix(
  plates: readonly string[],
  stored: (text: string) => boolean,
  seed: string | number,
): { warmUp: TypingSequence; sequences: TypingSequence[] } {
  const random = createRandom(`screen-typing-${seed}`);
  const sevens = plates.filter((plate) => plate.length === 7);
  const pool = sevens.length > 0 ? sevens : plates;
  const used = new Set<string>();
  const plate = (accept: (candidate: string) => boolean = () => true): string => {
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const candidate = random.pick(pool);
      if (!used.has(candidate) && accept(candidate)) {
        used.add(candidate);
        return candidate;
      }
    }
    throw new Error('no stored plate fits the typing mix');
  };
  const chars = (text: string) => [...text];

  const make: Record<SequenceKind, () => TypingSequence> = {
    plate: () => {
      const p = plate();
      return { kind: 'plate', description: p, keys: chars(p) };
    },
    correction: () => {
      const p = plate();
      return { kind: 'correction', description: `${p}, ⌫⌫, ${p.slice(-2)}`, keys: [...chars(p), 'Backspace', 'Backspace', ...chars(p.slice(-2))] };
    },
    random: () => {
      for (;;) {
        let text = '';
        for (let i = 0; i < 7; i++) text += random.pick([...SYMBOLS]);
        if (stored(text.slice(0, 4))) continue; // a miss from four characters on
        return { kind: 'random', description: `${text}, ⌫⌫⌫`, keys: [...chars(text), 'Backspace', 'Backspace', 'Backspace'] };
      }
    },
    similar: () => {
      for (;;) {
        const p = plate((candidate) => [...candidate].some((c) => LOOK_ALIKE[c] !== undefined));
        const positions = [...p].flatMap((c, i) => (LOOK_ALIKE[c] !== undefined ? [i] : []));
        const at = random.pick(positions);
        const typed = p.slice(0, at) + LOOK_ALIKE[p[at]!]! + p.slice(at + 1);
        if (stored(typed)) continue;
        return { kind: 'similar', description: `${typed} (stored as ${p})`, keys: chars(typed) };
      }
    },
    middle: () => {
      const p = plate((candidate) => candidate.length >= 7);
      const part = p.slice(1, 6).toLowerCase();
      return { kind: 'middle', description: `${part} (of ${p})`, keys: chars(part) };
    },
    typo: () => {
      const p = plate();
      const wrong = random.pick([...SYMBOLS].filter((c) => c !== p[3]));
      return { kind: 'typo', description: `${p.slice(0, 3)}${wrong}⌫${p.slice(3)}`, keys: [...chars(p.slice(0, 3)), wrong, 'Backspace', ...chars(p.slice(3))] };
    },
  };

  const warmUp = make.plate();
  // Kinds interleaved (plate, correction, random, …, plate, …) so that each meets the machine's load alike.
  const queues = (Object.keys(MIX) as SequenceKind[]).map((kind) => Array.from({ length: MIX[kind] }, () => make[kind]()));
  const sequences: TypingSequence[] = [];
  for (let round = 0; queues.some((queue) => round < queue.length); round++) {
    for (const queue of queues) if (round < queue.length) sequences.push(queue[round]!);
  }
  return { warmUp, sequences };
}
