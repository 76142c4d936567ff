/**
 * A staged page's rows held in memory in columns (docs/enforcement-sync.md "Staged rows in memory"), so that a search
 * during a sync, and the expansion after it, read them without IndexedDB: a read of staged rows waited behind the
 * sync's commits in the browser's IndexedDB backend (BENCHMARKS.md at f3b7360, "Where a slow search during the sync spends its
 * time"). The staged rows as JSON are ~290 bytes a record, 140 MB at 500,000: too much for a phone's worker. In columns
 * a record takes ~60 bytes: ids and times as 32-bit integers, amounts as cents, ISO times as seconds, repeated texts
 * (statuses, a page's one location) once, other texts in one string per column.
 *
 * Every column kind is chosen only when each value of the page comes back exactly as it went in (checked value by
 * value while packing), so a row read from here equals the one staged in IndexedDB; a page whose rows do not share
 * one shape is not packed, and is read from IndexedDB as before.
 */

type Value = string | number | boolean | null;
type Row = Readonly<Record<string, unknown>>;

type Column =
  | { kind: 'same'; value: Value }
  | { kind: 'u32'; values: Uint32Array }
  | { kind: 'f64'; values: Float64Array }
  | { kind: 'cents'; values: Uint32Array }
  | { kind: 'isoSeconds'; values: Uint32Array }
  | { kind: 'isoMs'; values: Float64Array }
  | { kind: 'dict'; words: Value[]; at: Uint8Array }
  | { kind: 'text'; text: string; ends: Uint32Array; nulls: Uint8Array | null }
  | { kind: 'any'; values: Value[] };

const U32_LIMIT = 2 ** 32;
/** Distinct values a dictionary column holds at most (its positions are bytes). */
const DICT_LIMIT = 256;

const isU32 = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < U32_LIMIT;
const toCents = (value: number) => Math.round(value * 100);
const isCents = (value: unknown): value is number => {
  if (typeof value !== 'number') return false;
  const cents = toCents(value);
  return cents >= 0 && cents < U32_LIMIT && cents / 100 === value;
};
const DIGIT_AT = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
const SEPARATORS: readonly [number, number][] = [[4, 45], [7, 45], [10, 84], [13, 58], [16, 58], [19, 46], [23, 90]]; // - - T : : . Z
const digits = (text: string, from: number, count: number) => {
  let value = 0;
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
};
const daysIn = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * Milliseconds of a text `toISOString` gives back exactly (YYYY-MM-DDTHH:mm:ss.sssZ, a real date), else NaN. Read
 * by hand: Date.parse and toISOString to check each value made packing a page 3× slower.
 */
function isoMs(value: unknown): number {
  if (typeof value !== 'string' || value.length !== 24) return Number.NaN;
  for (const [at, code] of SEPARATORS) if (value.charCodeAt(at) !== code) return Number.NaN;
  for (const at of DIGIT_AT) {
    const code = value.charCodeAt(at);
    if (code < 48 || code > 57) return Number.NaN;
  }
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
    return Number.NaN;
  }
  // Date.UTC reads years 0–99 as 1900–1999; toISOString would not give such a text back anyway.
  if (year < 100) return Number.NaN;
  return Date.UTC(year, month - 1, day, hour, minute, second, digits(value, 20, 3));
}

/** What JSON gives back as it was: a row read from IndexedDB's staged rows went through JSON. */
const isJsonValue = (value: unknown): value is Value =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));

function packColumn(values: readonly unknown[]): Column | null {
  if (!values.every(isJsonValue)) return null;
  const first = values[0]!;
  if (values.every((value) => value === first)) return { kind: 'same', value: first };
  if (values.every(isU32)) return { kind: 'u32', values: Uint32Array.from(values as number[]) };
  if (values.every(isCents)) return { kind: 'cents', values: Uint32Array.from(values as number[], toCents) };
  if (values.every((value) => typeof value === 'number')) return { kind: 'f64', values: Float64Array.from(values as number[]) };
  if (values.every((value) => typeof value === 'string' || value === null)) return packTexts(values as (string | null)[]);
  return { kind: 'any', values: values as Value[] };
}

function packTexts(values: readonly (string | null)[]): Column {
  const words = new Map<string | null, number>();
  for (const value of values) {
    if (!words.has(value)) words.set(value, words.size);
    if (words.size > DICT_LIMIT) break;
  }
  if (words.size <= DICT_LIMIT) {
    return { kind: 'dict', words: [...words.keys()], at: Uint8Array.from(values, (value) => words.get(value)!) };
  }
  const ms = values.map(isoMs);
  if (ms.every((value) => !Number.isNaN(value))) {
    const seconds = ms.every((value) => value % 1000 === 0 && isU32(value / 1000));
    return seconds
      ? { kind: 'isoSeconds', values: Uint32Array.from(ms, (value) => value / 1000) }
      : { kind: 'isoMs', values: Float64Array.from(ms) };
  }
  const ends = new Uint32Array(values.length);
  let nulls: Uint8Array | null = null;
  let length = 0;
  values.forEach((value, i) => {
    if (value === null) (nulls ??= new Uint8Array(values.length))[i] = 1;
    else length += value.length;
    ends[i] = length;
  });
  return { kind: 'text', text: values.map((value) => value ?? '').join(''), ends, nulls };
}

function readColumn(column: Column, i: number): Value {
  switch (column.kind) {
    case 'same':
      return column.value;
    case 'u32':
    case 'f64':
      return column.values[i]!;
    case 'cents':
      return column.values[i]! / 100;
    case 'isoSeconds':
      return new Date(column.values[i]! * 1000).toISOString();
    case 'isoMs':
      return new Date(column.values[i]!).toISOString();
    case 'dict':
      return column.words[column.at[i]!]!;
    case 'text':
      if (column.nulls !== null && column.nulls[i] === 1) return null;
      return column.text.slice(i === 0 ? 0 : column.ends[i - 1]!, column.ends[i]!);
    case 'any':
      return column.values[i]!;
  }
}

function columnBytes(column: Column): number {
  switch (column.kind) {
    case 'same':
      return 16;
    case 'u32':
    case 'f64':
    case 'cents':
    case 'isoSeconds':
    case 'isoMs':
      return column.values.byteLength;
    case 'dict':
      return column.words.reduce<number>((sum, word) => sum + 16 + (typeof word === 'string' ? word.length : 0), column.at.byteLength);
    case 'text':
      return column.text.length + column.ends.byteLength + (column.nulls?.byteLength ?? 0);
    case 'any':
      return column.values.length * 16;
  }
}

/** A PackedRows as IndexedDB keeps it: plain data (typed arrays, texts), structured-cloned as it is. */
export interface StoredPackedRows {
  fields: string[];
  columns: Column[];
  length: number;
}

const isU32Array = (value: unknown, length: number) => value instanceof Uint32Array && value.length === length;
const isF64Array = (value: unknown, length: number) => value instanceof Float64Array && value.length === length;

/** Whether `column` is a well-formed column of `length` values (what a stored page holds is checked before use). */
function isColumn(column: unknown, length: number): column is Column {
  if (typeof column !== 'object' || column === null) return false;
  const c = column as Record<string, unknown>;
  switch (c.kind) {
    case 'same':
      return c.value === null || ['string', 'number', 'boolean'].includes(typeof c.value);
    case 'u32':
    case 'cents':
    case 'isoSeconds':
      return isU32Array(c.values, length);
    case 'f64':
    case 'isoMs':
      return isF64Array(c.values, length);
    case 'dict':
      return (
        Array.isArray(c.words) &&
        c.at instanceof Uint8Array &&
        c.at.length === length &&
        c.at.every((at) => at < (c.words as unknown[]).length)
      );
    case 'text':
      return (
        typeof c.text === 'string' &&
        isU32Array(c.ends, length) &&
        (c.ends as Uint32Array).every((end, i, ends) => end <= (c.text as string).length && (i === 0 || end >= ends[i - 1]!)) &&
        (c.nulls === null || (c.nulls instanceof Uint8Array && c.nulls.length === length))
      );
    case 'any':
      return Array.isArray(c.values) && c.values.length === length;
    default:
      return false;
  }
}

export class PackedRows {
  readonly #fields: readonly string[];
  readonly #columns: readonly Column[];
  readonly length: number;
  /** About what the columns take in memory. */
  readonly bytes: number;

  private constructor(fields: readonly string[], columns: readonly Column[], length: number) {
    this.#fields = fields;
    this.#columns = columns;
    this.length = length;
    this.bytes = columns.reduce((sum, column) => sum + columnBytes(column), 0);
  }

  /** The rows in columns, or null when they do not share one shape (the same fields, in the same order). */
  static pack<T extends object>(rows: readonly T[]): PackedRows | null {
    const first = rows[0];
    if (first === undefined) return null;
    const fields = Object.keys(first);
    for (const row of rows) {
      const keys = Object.keys(row);
      if (keys.length !== fields.length || keys.some((key, i) => key !== fields[i])) return null;
    }
    const columns: Column[] = [];
    for (const field of fields) {
      const column = packColumn(rows.map((row) => (row as Row)[field]));
      if (column === null) return null;
      columns.push(column);
    }
    return new PackedRows(fields, columns, rows.length);
  }

  /** Row `i` as it was packed (a new object). */
  row<T>(i: number): T {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`No packed row ${i} of ${this.length}`);
    const row: Record<string, Value> = {};
    for (let f = 0; f < this.#fields.length; f++) row[this.#fields[f]!] = readColumn(this.#columns[f]!, i);
    return row as T;
  }

  rows<T>(): T[] {
    return Array.from({ length: this.length }, (_, i) => this.row<T>(i));
  }

  toStored(): StoredPackedRows {
    return { fields: [...this.#fields], columns: [...this.#columns], length: this.length };
  }

  /** A stored page's rows, or null when what is stored is not a well-formed PackedRows. */
  static fromStored(value: unknown): PackedRows | null {
    if (typeof value !== 'object' || value === null) return null;
    const { fields, columns, length } = value as Partial<StoredPackedRows>;
    if (!Number.isInteger(length) || length! < 1) return null;
    if (!Array.isArray(fields) || !fields.every((field) => typeof field === 'string')) return null;
    if (!Array.isArray(columns) || columns.length !== fields.length) return null;
    if (!columns.every((column) => isColumn(column, length!))) return null;
    return new PackedRows(fields, columns, length!);
  }
}
