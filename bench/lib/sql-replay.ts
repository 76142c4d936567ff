/**
 * The baseline "the same SQL replayed through the same pool" (issue 35: lists, dashboards): every database call a
 * request makes is recorded (text, parameters, options, when it started and ended), then run again on the same
 * database handle without the app around it: no routing, session check, validation or JSON. Calls that overlapped in
 * the request (PostgreSQL runs a page and its count side by side on pooled connections) are replayed side by side, so
 * the replay has the request's own concurrency, no more and no less.
 */
import type { Db, QueryOptions, QueryResult } from '../../server/db/db';

export interface RecordedQuery {
  sql: string;
  params: unknown[];
  options: QueryOptions | undefined;
  /** performance.now() when the call was made and when it answered. */
  startedAt: number;
  endedAt: number;
}

/**
 * A database whose `query` calls are recorded while `capture` runs (one capture at a time: the benches send one request
 * at a time). Calls inside `transaction` are not recorded (the read routes measured here use none).
 */
export function recordingDb(db: Db) {
  let into: RecordedQuery[] | null = null;
  const recorded: Db = {
    ...db,
    query: async <T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>> => {
      const list = into;
      const startedAt = performance.now();
      try {
        return await db.query<T>(sql, params, options);
      } finally {
        list?.push({ sql, params: params ? [...params] : [], options, startedAt, endedAt: performance.now() });
      }
    },
  };
  return {
    db: recorded,
    /** Runs `work` and returns what it returned with the database calls it made, in the order they were made. */
    async capture<T>(work: () => Promise<T>): Promise<{ result: T; queries: RecordedQuery[] }> {
      if (into) throw new Error('recordingDb: one capture at a time');
      const queries: RecordedQuery[] = [];
      into = queries;
      try {
        return { result: await work(), queries };
      } finally {
        into = null;
      }
    },
  };
}

/** A request's calls in groups: a call that started before every earlier one had answered joins their group. */
export function concurrentGroups(queries: readonly RecordedQuery[]): RecordedQuery[][] {
  const groups: RecordedQuery[][] = [];
  let groupEnd = -Infinity;
  for (const query of [...queries].sort((a, b) => a.startedAt - b.startedAt)) {
    if (groups.length > 0 && query.startedAt < groupEnd) {
      groups.at(-1)!.push(query);
      groupEnd = Math.max(groupEnd, query.endedAt);
    } else {
      groups.push([query]);
      groupEnd = query.endedAt;
    }
  }
  return groups;
}

/** Replays a request's calls on `db` (group after group, each group's calls side by side); returns the wall ms. */
export async function replay(db: Db, queries: readonly RecordedQuery[]): Promise<number> {
  const started = performance.now();
  for (const group of concurrentGroups(queries)) {
    await Promise.all(group.map((query) => db.query(query.sql, query.params, query.options)));
  }
  return performance.now() - started;
}
