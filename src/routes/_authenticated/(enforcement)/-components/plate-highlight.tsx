import type { ReactNode } from 'react';

/** Characters officers commonly misread, by class (issue: similar characters). */
const CONFUSABLE: Record<string, string> = {
  O: 'O', '0': 'O', Q: 'O', D: 'O',
  I: 'I', '1': 'I', L: 'I',
  S: 'S', '5': 'S',
  B: 'B', '8': 'B',
  Z: 'Z', '2': 'Z',
  G: 'G', '6': 'G',
};

function toClasses(text: string): string {
  let out = '';
  for (const char of text.toUpperCase()) out += CONFUSABLE[char] ?? char;
  return out;
}

/** Where the query sits in the plate: exactly, or else up to misread characters; null when it does not. */
export function matchRange(plate: string, query: string): [number, number] | null {
  const q = query.trim().toUpperCase();
  if (!q) return null;
  const upper = plate.toUpperCase();
  let at = upper.indexOf(q);
  if (at < 0) at = toClasses(upper).indexOf(toClasses(q));
  return at < 0 ? null : [at, at + q.length];
}

/** The characters a similar match swapped: [typed, on the plate] pairs, in plate order, each pair once. */
export function swappedCharacters(plate: string, query: string): [string, string][] {
  const range = matchRange(plate, query);
  if (!range) return [];
  const q = query.trim().toUpperCase();
  const upper = plate.toUpperCase();
  const swaps: [string, string][] = [];
  for (let i = 0; i < q.length; i++) {
    const typed = q[i]!;
    const onPlate = upper[range[0] + i]!;
    if (typed !== onPlate && !swaps.some(([a, b]) => a === typed && b === onPlate)) swaps.push([typed, onPlate]);
  }
  return swaps;
}

/**
 * The plate with the part that matched the query marked; within it, characters that differ from what was typed (a
 * similar match) are marked again, so the officer sees which ones were swapped.
 */
export function PlateHighlight({ plate, query }: { plate: string; query: string }) {
  const range = matchRange(plate, query);
  if (!range) return <span className="plate">{plate}</span>;
  const [start, end] = range;
  const q = query.trim().toUpperCase();
  const matched = plate.slice(start, end);
  const parts: ReactNode[] = [];
  let run = '';
  for (let i = 0; i < matched.length; i++) {
    const char = matched[i]!;
    if (char.toUpperCase() === q[i]) {
      run += char;
      continue;
    }
    if (run) parts.push(run);
    run = '';
    parts.push(
      <span key={i} className="swapped">
        {char}
      </span>,
    );
  }
  if (run) parts.push(run);
  return (
    <span className="plate">
      {plate.slice(0, start)}
      <mark>{parts}</mark>
      {plate.slice(end)}
    </span>
  );
}
