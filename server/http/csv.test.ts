import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, csvRecord } from './csv';

/** What the parser must read back: the text itself, with an apostrophe before a would-be formula. */
const guarded = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

describe('the CSV writer', () => {
  it('round-trips any table of strings through a standard CSV parser', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 6,
        }),
        (rows) => {
          const text = rows.map(csvRecord).join('');
          const parsed: string[][] = parse(text, { relax_column_count: true, record_delimiter: '\r\n' });
          expect(parsed).toEqual(rows.map((row) => row.map(guarded)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips the characters that matter most: quotes, commas, newlines and formula prefixes', () => {
    const tricky = fc.stringMatching(/^[",\r\n=+\-@\tab ]{0,10}$/);
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 4 }), (row) => {
        const parsed: string[][] = parse(csvRecord(row), { record_delimiter: '\r\n' });
        expect(parsed[0]).toEqual(row.map(guarded));
      }),
      { numRuns: 1000 },
    );
  });

  it('never lets a cell start a formula', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const [parsed] = parse(csvRecord([value]), { record_delimiter: '\r\n' }) as string[][];
        expect(parsed?.[0] ?? '').not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });

  it('writes numbers, booleans and empty values as they are', () => {
    expect(csvRecord([-5, 12.5, true, null, undefined, ''])).toBe('-5,12.5,true,,,\r\n');
    expect(csvCell('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
  });

  it('names the file after the section and the day', () => {
    expect(csvFileName('transactions', new Date('2026-11-23T23:59:00Z'))).toBe('transactions-2026-11-23.csv');
  });
});
