/**
 * The one database seam of the API. Both adapters (PGlite for local development and tests, node-postgres for a real
 * server) implement it, so repositories and migrations never know which engine they talk to.
 */
export interface QueryResult<T> {
  rows: T[];
}

export interface QueryOptions {
  /**
   * Prepares the statement once per connection under this name (node-postgres: parsed and planned once, then only
   * bound and run), for a fixed text that runs on every request: the session's staff lookup, a refund, a redemption.
   * One name, one text. Not for texts built per request (lists): each would stay prepared on every connection, and a
   * generic plan could suit their varied filters badly. PGlite ignores it.
   */
  prepare?: string;
}

export interface Queryable {
  query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations); `query` allows only one statement. */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
