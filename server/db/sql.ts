/** SQL fragments every repository writes the same way. */

/** Date-times go out as ISO 8601 in UTC (`2026-03-02T15:00:00.000Z`), the same text on PGlite and PostgreSQL. */
export const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** numeric dollars → integer cents, exact: node-postgres would hand numeric over as text and bigint as strings. */
export const cents = (column: string) => `(${column} * 100)::integer`;

/** Escapes LIKE's wildcards so that a user's `%` or `_` matches itself. */
export function likeFragment(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** Collects positional parameters while a query is built: `params.add(value)` returns `$n`. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
