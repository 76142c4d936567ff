import { describe, expect, it } from 'vitest';
import { concurrentGroups, type RecordedQuery } from './sql-replay';

const call = (sql: string, startedAt: number, endedAt: number): RecordedQuery => ({ sql, params: [], options: undefined, startedAt, endedAt });

describe('concurrentGroups', () => {
  it('keeps calls that overlapped together and calls that followed apart', () => {
    const groups = concurrentGroups([call('staff', 0, 2), call('page', 3, 8), call('count', 3.5, 6), call('late', 7, 9), call('after', 10, 11)]);
    expect(groups.map((group) => group.map((query) => query.sql))).toEqual([['staff'], ['page', 'count', 'late'], ['after']]);
  });
});
