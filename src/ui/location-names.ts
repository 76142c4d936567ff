/**
 * Location names in the order a person expects: case-insensitive and natural ("Union …" before "UX …", "Lot 2"
 * before "Lot 10"), the id breaking ties. The server sorts its choices by `lower(name)` (SQL has no natural order on
 * both PGlite and PostgreSQL); lists the browser puts together itself use this.
 */
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

export function byLocationName(a: { name: string; location_id: number }, b: { name: string; location_id: number }): number {
  return collator.compare(a.name, b.name) || a.location_id - b.location_id;
}

export function sortedByName<T extends { name: string; location_id: number }>(locations: readonly T[]): T[] {
  return [...locations].sort(byLocationName);
}
