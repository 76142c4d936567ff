import { describe, expect, it } from 'vitest';
import { DEFAULT_TYPING_GAP_MS, READ_AHEAD_MAX_AGE_MS, ReadAheadAnswers, TypingPace } from './read-ahead';
import { SEARCH_CATEGORIES, type PlateSearchResult } from '../../../../worker/enforcement-worker-api';

const T = 1_750_000_000_000;
const ALL = { locationId: undefined, similar: true };

function totals(valid: number): PlateSearchResult {
  const result = {} as PlateSearchResult;
  for (const category of SEARCH_CATEGORIES) result[category] = { total: category === 'valid' ? valid : 0, exactTotal: 0, page: 0, rows: [] };
  return result;
}

describe('answers kept for painting with the keystroke', () => {
  it('keeps a whole answer over an older read-ahead of the same text, and a newer read-ahead over it', () => {
    const answers = new ReadAheadAnswers();
    answers.remember({ query: 'AB', result: totals(1), at: T }, ALL, 0);
    answers.rememberAhead('A', { B: totals(2) }, ALL, T - 1, 0);
    expect(answers.get('AB', ALL, T)).toMatchObject({ result: totals(1) });
    expect(answers.get('AB', ALL, T)?.partial).toBeUndefined();
    answers.rememberAhead('A', { B: totals(3) }, ALL, T + 1, 0);
    expect(answers.get('AB', ALL, T + 1)).toMatchObject({ query: 'AB', result: totals(3), partial: true });
  });

  it('tells scopes and ages apart, and forgets everything on clear', () => {
    const answers = new ReadAheadAnswers();
    answers.rememberAhead('A', { B: totals(2) }, ALL, T, answers.generation);
    expect(answers.get('AB', { locationId: 3, similar: true }, T)).toBeUndefined();
    expect(answers.get('AB', { locationId: undefined, similar: false }, T)).toBeUndefined();
    expect(answers.get('AB', ALL, T + READ_AHEAD_MAX_AGE_MS)).toBeDefined();
    expect(answers.get('AB', ALL, T + READ_AHEAD_MAX_AGE_MS + 1)).toBeUndefined();
    const before = answers.generation;
    answers.clear();
    expect(answers.get('AB', ALL, T)).toBeUndefined();
    // Asked before the clear, answered after it: computed from the store as it was, so not kept.
    answers.rememberAhead('A', { B: totals(2) }, ALL, T, before);
    answers.remember({ query: 'A', result: totals(1), at: T }, ALL, before);
    expect(answers.get('AB', ALL, T)).toBeUndefined();
    expect(answers.get('A', ALL, T)).toBeUndefined();
  });

  it('holds at most 400 answers, dropping the oldest', () => {
    const answers = new ReadAheadAnswers();
    for (let i = 0; i < 401; i++) answers.remember({ query: `P${i}`, result: totals(i), at: T }, ALL, 0);
    expect(answers.get('P0', ALL, T)).toBeUndefined();
    expect(answers.get('P1', ALL, T)).toBeDefined();
    expect(answers.get('P400', ALL, T)).toBeDefined();
  });

  it('keeps nothing a keystroke stopped', () => {
    const answers = new ReadAheadAnswers();
    answers.rememberAhead('A', null, ALL, T, 0);
    expect(answers.get('AB', ALL, T)).toBeUndefined();
  });
});

describe("the officer's typing pace", () => {
  it('gives a read-ahead three quarters of the usual gap between keys, from the last key', () => {
    const pace = new TypingPace();
    expect(pace.gapMs).toBe(DEFAULT_TYPING_GAP_MS);
    pace.keystroke(1000);
    expect(pace.budgetMs(1040)).toBe(Math.round(0.75 * DEFAULT_TYPING_GAP_MS - 40));
    for (const at of [1200, 1400, 1560, 1800]) pace.keystroke(at);
    // Gaps 200, 200, 160, 240: the median of four is the upper middle one.
    expect(pace.gapMs).toBe(200);
    expect(pace.budgetMs(1830)).toBe(120);
    expect(pace.budgetMs(2000)).toBe(0);
  });

  it('counts only gaps of typing: not a paste or a test (under 50 ms), nor a pause (over a second)', () => {
    const pace = new TypingPace();
    for (const at of [0, 5, 10, 3000, 3300]) pace.keystroke(at);
    expect(pace.gapMs).toBe(300);
    for (let i = 1; i <= 20; i++) pace.keystroke(3300 + 100 * i);
    expect(pace.gapMs).toBe(100); // the last nine gaps only
  });
});
