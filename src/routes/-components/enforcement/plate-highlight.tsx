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

/** The plate with the part that matched the query marked. */
export function PlateHighlight({ plate, query }: { plate: string; query: string }) {
  const range = matchRange(plate, query);
  if (!range) return <span className="plate">{plate}</span>;
  const [start, end] = range;
  return (
    <span className="plate">
      {plate.slice(0, start)}
      <mark>{plate.slice(start, end)}</mark>
      {plate.slice(end)}
    </span>
  );
}
