// What bench/lib/api-process.ts passes to the process it starts (api-process-main.ts, as its JSON argument): in a
// module of its own, so that the started process does not import the module that starts it (docs/architecture.md).
export interface ApiProcessOptions {
  /** PostgreSQL; otherwise PGlite at pgliteDir. */
  databaseUrl?: string;
  pgliteDir?: string;
  /** ISO time: the API's fixed clock. */
  now: string;
}
