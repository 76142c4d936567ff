import { describe, expect, it } from 'vitest';
import {
  advanceCursor,
  checkOverlap,
  FRESH_CURSOR,
  pageOrderProblem,
  planPage,
  restartRun,
  type SyncCursor,
} from './sync-cursor';

const id = (r: { key: number }) => String(r.key);
const rec = (key: number, updated_at: number) => ({ key, updated_at });

describe('sync cursor', () => {
  it('starts with no updated_at and offset 0', () => {
    expect(planPage(FRESH_CURSOR, true)).toEqual({ cursor: FRESH_CURSOR, overlap: false, fields: { offset: 0 } });
  });

  it('sends updated_at in milliseconds, and asks one record early only when checking the last record held', () => {
    const cursor: SyncCursor = { updatedAt: 1000, offset: 3, lastIdentity: '7' };
    expect(planPage(cursor, false).fields).toEqual({ updated_at: 1_000_000, offset: 3 });
    expect(planPage(cursor, true)).toMatchObject({ overlap: true, fields: { updated_at: 1_000_000, offset: 2 } });
    expect(planPage({ ...cursor, offset: 0 }, true).overlap).toBe(false);
    expect(planPage({ ...cursor, lastIdentity: null }, true).overlap).toBe(false);
  });

  it('counts the run of the last second across pages', () => {
    const first = advanceCursor(planPage(FRESH_CURSOR, false), [rec(1, 10), rec(2, 20), rec(3, 20)], id);
    expect(first).toEqual({ updatedAt: 20, offset: 2, lastIdentity: '3' });
    const same = advanceCursor(planPage(first, false), [rec(4, 20), rec(5, 20)], id);
    expect(same).toEqual({ updatedAt: 20, offset: 4, lastIdentity: '5' });
    const next = advanceCursor(planPage(same, false), [rec(6, 20), rec(7, 30)], id);
    expect(next).toEqual({ updatedAt: 30, offset: 1, lastIdentity: '7' });
    // Asked one early: the overlapping record is part of the run counted from the offset sent.
    const overlapped = advanceCursor(planPage(same, true), [rec(5, 20), rec(8, 20)], id);
    expect(overlapped).toEqual({ updatedAt: 20, offset: 5, lastIdentity: '8' });
    expect(advanceCursor(planPage(same, false), [], id)).toBe(same);
  });

  it('accepts the overlap only when the first record is the last held, in the same second', () => {
    const plan = planPage({ updatedAt: 20, offset: 4, lastIdentity: '5' }, true);
    expect(checkOverlap(plan, [rec(5, 20), rec(6, 21)], id)).toEqual({ ok: true, held: 1 });
    expect(checkOverlap(plan, [rec(4, 20)], id)).toEqual({ ok: false });
    expect(checkOverlap(plan, [rec(5, 25)], id)).toEqual({ ok: false });
    expect(checkOverlap(plan, [], id)).toEqual({ ok: false });
    expect(checkOverlap(planPage(FRESH_CURSOR, true), [], id)).toEqual({ ok: true, held: 0 });
    expect(restartRun({ updatedAt: 20, offset: 4, lastIdentity: '5' })).toEqual({ updatedAt: 20, offset: 0, lastIdentity: null });
  });

  it('rejects pages out of updated_at order or before the cursor', () => {
    expect(pageOrderProblem(FRESH_CURSOR, [rec(1, 10), rec(2, 10), rec(3, 11)])).toBeNull();
    expect(pageOrderProblem(FRESH_CURSOR, [rec(1, 10), rec(2, 9)])).toMatch(/record 1/);
    expect(pageOrderProblem({ updatedAt: 50, offset: 0, lastIdentity: null }, [rec(1, 49)])).toMatch(/before 50/);
  });
});
