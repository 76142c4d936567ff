import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { forgivingSearch, positiveIdSearch } from './list-route';

describe('positiveIdSearch', () => {
  const search = positiveIdSearch('mailing');
  it.each([
    [{ mailing: 12 }, { mailing: 12 }],
    [{ mailing: '12' }, { mailing: 12 }],
    [{ mailing: 'abc' }, {}],
    [{ mailing: 0 }, {}],
    [{ mailing: -3 }, {}],
    [{ mailing: 1.5 }, {}],
    [{ mailing: '9007199254740993' }, {}],
    [{ other: 4 }, {}],
  ])('reads %j as %j', (raw, expected) => {
    expect(search(raw)).toEqual(expected);
  });
});

describe('forgivingSearch', () => {
  const schema = z.object({ page: z.optional(z.int().check(z.positive())), q: z.optional(z.string()) });
  const validate = (value: unknown) => forgivingSearch(schema)['~standard'].validate(value);
  it('drops only the parameters the schema refuses', () => {
    expect(validate({ page: 'abc', q: 'Pike' })).toMatchObject({ value: { q: 'Pike' } });
    expect(validate({ page: 2, q: 'Pike' })).toMatchObject({ value: { page: 2, q: 'Pike' } });
  });
});
