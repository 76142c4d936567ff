-- Mailing (issue 14): parkers' e-mail addresses, the opt-out list, mailings and one row per recipient.
-- docs/mailing.md explains the states and why a message is never sent twice across a crash.

-- A parker's address, on each of their vehicle rows (the rows of one parker carry the same address).
ALTER TABLE monthly_parkers ADD COLUMN email text CHECK (email IS NULL OR (email <> '' AND length(email) <= 254));
CREATE INDEX monthly_parkers_email_idx ON monthly_parkers (lower(email)) WHERE email IS NOT NULL;

-- Who asked never to be mailed, keyed by the lower-cased address: it applies whatever parker row carries it.
CREATE TABLE mailing_opt_outs (
  email        text PRIMARY KEY CHECK (email = lower(email) AND email <> ''),
  opted_out_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mailings (
  mailing_id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subject          text NOT NULL CHECK (subject <> '' AND length(subject) <= 200),
  body_markdown    text NOT NULL CHECK (body_markdown <> '' AND length(body_markdown) <= 50000),
  -- The segment as chosen: {"kind":"parkers","locationIds":[..],"parkerStatus":".."} or {"kind":"staff","roleIds":[..]}.
  segment          jsonb NOT NULL,
  -- queued → sending → done; a job interrupted by a crash stays 'sending' and is resumed.
  state            text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'sending', 'done')),
  rate_per_second  integer NOT NULL DEFAULT 0 CHECK (rate_per_second >= 0),
  recipient_count  integer NOT NULL CHECK (recipient_count >= 0),
  created_by       integer REFERENCES users (user_id) ON DELETE SET NULL,
  created_by_email text NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  finished_at      timestamptz
);
CREATE INDEX mailings_unfinished_idx ON mailings (mailing_id) WHERE state <> 'done';

-- One row per (mailing, address): the address is unique within a mailing, so nobody is in it twice.
-- pending → sending (claimed by the sender; its DATA has not ended) → sent | failed | skipped (opted out meanwhile).
CREATE TABLE mailing_recipients (
  mailing_id   bigint NOT NULL REFERENCES mailings (mailing_id) ON DELETE CASCADE,
  recipient_id integer NOT NULL CHECK (recipient_id > 0),
  email        text NOT NULL CHECK (email = lower(email) AND email <> ''),
  first_name   text NOT NULL DEFAULT '',
  last_name    text NOT NULL DEFAULT '',
  state        text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed', 'skipped')),
  attempts     integer NOT NULL DEFAULT 0,
  error        text,
  sent_at      timestamptz,
  PRIMARY KEY (mailing_id, recipient_id),
  UNIQUE (mailing_id, email)
);
-- The sender's next batch and the progress counts read by state.
CREATE INDEX mailing_recipients_state_idx ON mailing_recipients (mailing_id, state, recipient_id);
