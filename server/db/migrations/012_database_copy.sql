-- Database Copy (issue 14): one row per copy, in the API's own database (docs/database-copy.md).
-- `tables` holds the plan and, once finished, the rows copied per table: [{"table","rows","status"}].
CREATE TABLE database_copies (
  copy_id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source           text NOT NULL CHECK (source <> ''),
  target           text NOT NULL CHECK (target <> '' AND target <> source),
  tables           jsonb NOT NULL,
  masked           boolean NOT NULL,
  status           text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
  rows_copied      bigint NOT NULL DEFAULT 0 CHECK (rows_copied >= 0),
  error            text,
  started_by       integer REFERENCES users (user_id) ON DELETE SET NULL,
  started_by_email text NOT NULL,
  started_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz,
  CHECK ((status = 'running') = (finished_at IS NULL))
);
-- One copy at a time, whichever API process starts it: a second running row is a unique violation.
CREATE UNIQUE INDEX database_copies_one_running ON database_copies ((true)) WHERE status = 'running';
CREATE INDEX database_copies_started_idx ON database_copies (started_at DESC, copy_id DESC);
