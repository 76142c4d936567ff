import type { Context } from 'hono';

/**
 * CSV as spreadsheets read it (RFC 4180): fields joined by commas, records by CRLF, a field quoted when it holds a
 * comma, a quote, CR or LF, with quotes doubled inside. A cell that starts with = + - @, tab or CR would be run as a
 * formula by Excel or Sheets (CSV injection), so it gets a leading apostrophe: spreadsheets show the text as typed.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // Numbers are written by us and never formulas ("-5" is a refund, not a formula), so only text is guarded.
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** `transactions-2026-11-23.csv`: the section and the day of the export. */
export function csvFileName(section: string, now: Date): string {
  return `${section}-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * Streams a CSV response: the header, then each batch as the database hands it over, so memory stays flat however
 * many rows match. A fault after the first bytes cannot become an error status any more; the stream is aborted, so
 * the download fails visibly instead of ending short as if complete.
 */
export function csvResponse(
  c: Context,
  options: { fileName: string; header: readonly string[]; batches: AsyncIterable<readonly (readonly CsvValue[])[]> },
): Response {
  const encoder = new TextEncoder();
  const iterator = options.batches[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // A byte-order mark lets Excel read UTF-8 names (São Paulo) correctly.
      controller.enqueue(encoder.encode(`\uFEFF${csvRecord(options.header)}`));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(next.value.map(csvRecord).join('')));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${options.fileName}"`,
  });
}
