-- Dashboards (issue 10, docs/dashboards.md): per-location rollups that both dashboards read instead of payments, so
-- their cost does not grow with history. They are kept by triggers on `transactions`, in the same transaction as
-- every write (the seed's batches, the API, a refund, a settlement), so no write path has to remember them.
--
-- What a payment contributes, all in integer cents (bigint sums, never floats):
--   * payment_day_rollups:  its location's local day of payment_time (the real-time dashboard's "today").
--   * payment_hour_rollups: the start of its local hour (date_trunc with the zone: Kolkata's hours start at :30 UTC).
--   * settled_day_rollups:  its settled_date, once set (the settled dashboard: money paid out by the processor).
-- A refund counts through transactions.refunded_amount (the one amount the CHECK keeps within the payment), on the
-- payment's days: a refund row alone moves no money until its payment's refunded_amount follows, in the same
-- transaction (server/db/refunds.ts does both).

CREATE TABLE payment_day_rollups (
  location_id    integer NOT NULL,
  local_day      date NOT NULL,
  payments       bigint NOT NULL DEFAULT 0,
  gross_cents    bigint NOT NULL DEFAULT 0,
  fee_cents      bigint NOT NULL DEFAULT 0,
  refunded_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (location_id, local_day)
);

CREATE TABLE payment_hour_rollups (
  location_id    integer NOT NULL,
  hour_start     timestamptz NOT NULL,
  payments       bigint NOT NULL DEFAULT 0,
  gross_cents    bigint NOT NULL DEFAULT 0,
  fee_cents      bigint NOT NULL DEFAULT 0,
  refunded_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (location_id, hour_start)
);

CREATE TABLE settled_day_rollups (
  location_id    integer NOT NULL,
  settled_date   date NOT NULL,
  payments       bigint NOT NULL DEFAULT 0,
  gross_cents    bigint NOT NULL DEFAULT 0,
  fee_cents      bigint NOT NULL DEFAULT 0,
  refunded_cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (location_id, settled_date)
);
-- A range over every location reads one index range instead of one per location.
CREATE INDEX settled_day_rollups_date_idx ON settled_day_rollups (settled_date, location_id);

-- Every change the live stream announces gets the next number: the id of its Server-Sent Event.
CREATE SEQUENCE dashboard_change_seq;

-- Adds signed contributions to the three rollups. `delta` is the text of a query returning
-- (location_id, payment_time, payment_amount, fee, refunded_amount, settled_date, sign): the inserted rows with +1,
-- the deleted with -1, an update as both. Rows of one key are summed first, so a bulk insert does one upsert per
-- (location, day) and an update that moves no money (the sync's updated_at) none at all. Announces the locations
-- touched. Returns the statement, which its caller EXECUTEs: transition tables are visible to the trigger function's
-- own statements, not to functions it calls.
CREATE FUNCTION dashboard_delta_sql(delta text) RETURNS text
  LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    WITH delta AS (%s),
    located AS (
      SELECT d.location_id, d.sign, d.settled_date,
             (d.payment_time AT TIME ZONE l.time_zone)::date AS local_day,
             date_trunc('hour', d.payment_time, l.time_zone) AS hour_start,
             d.sign * (d.payment_amount * 100)::bigint AS gross,
             d.sign * (d.fee * 100)::bigint AS fee,
             d.sign * (d.refunded_amount * 100)::bigint AS refunded
        FROM delta d JOIN locations l ON l.location_id = d.location_id
    ),
    days AS (
      INSERT INTO payment_day_rollups AS r (location_id, local_day, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, local_day, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, local_day
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, local_day) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    hours AS (
      INSERT INTO payment_hour_rollups AS r (location_id, hour_start, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, hour_start, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, hour_start
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, hour_start) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    settled AS (
      INSERT INTO settled_day_rollups AS r (location_id, settled_date, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, settled_date, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located WHERE settled_date IS NOT NULL GROUP BY location_id, settled_date
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, settled_date) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    )
    SELECT array_agg(DISTINCT location_id ORDER BY location_id)
      FROM (SELECT location_id FROM days UNION ALL SELECT location_id FROM hours
            UNION ALL SELECT location_id FROM settled) AS changed
  $sql$, delta)
$$;

-- Tells the live stream which locations changed, on channel dashboard_changes. NOTIFY is delivered at commit, and
-- not at all on rollback, so a listener never hears of money that was not written.
CREATE FUNCTION dashboard_announce(touched integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF touched IS NOT NULL THEN
    PERFORM pg_notify('dashboard_changes',
      json_build_object('id', nextval('dashboard_change_seq'), 'locations', touched)::text);
  END IF;
END
$$;

-- Updates and deletes (refunds, settlements, the seed's replacements); its dynamic SQL sees the transition tables.
CREATE FUNCTION dashboard_rollups_on_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  columns constant text := 'location_id, payment_time, payment_amount, fee, refunded_amount, settled_date';
  touched integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE dashboard_delta_sql(format('SELECT %s, 1 AS sign FROM new_rows', columns)) INTO touched;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE dashboard_delta_sql(format('SELECT %s, -1 AS sign FROM old_rows', columns)) INTO touched;
  ELSE
    EXECUTE dashboard_delta_sql(format(
      'SELECT %1$s, 1 AS sign FROM new_rows UNION ALL SELECT %1$s, -1 AS sign FROM old_rows', columns)) INTO touched;
  END IF;
  PERFORM dashboard_announce(touched);
  RETURN NULL;
END
$$;

-- Payments arrive one statement at a time from the API, so inserts get a function of their own with static SQL: its
-- plan is prepared once per connection, where the dynamic statement above is planned on every call (measured by
-- bench:dashboards, "Rollup upkeep"). Same statement as dashboard_delta_sql's, over the inserted rows.
CREATE FUNCTION dashboard_rollups_on_insert() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  touched integer[];
BEGIN
    WITH delta AS (
      SELECT location_id, payment_time, payment_amount, fee, refunded_amount, settled_date, 1 AS sign FROM new_rows
    ),
    located AS (
      SELECT d.location_id, d.sign, d.settled_date,
             (d.payment_time AT TIME ZONE l.time_zone)::date AS local_day,
             date_trunc('hour', d.payment_time, l.time_zone) AS hour_start,
             d.sign * (d.payment_amount * 100)::bigint AS gross,
             d.sign * (d.fee * 100)::bigint AS fee,
             d.sign * (d.refunded_amount * 100)::bigint AS refunded
        FROM delta d JOIN locations l ON l.location_id = d.location_id
    ),
    days AS (
      INSERT INTO payment_day_rollups AS r (location_id, local_day, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, local_day, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, local_day
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, local_day) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    hours AS (
      INSERT INTO payment_hour_rollups AS r (location_id, hour_start, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, hour_start, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, hour_start
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, hour_start) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    settled AS (
      INSERT INTO settled_day_rollups AS r (location_id, settled_date, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, settled_date, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located WHERE settled_date IS NOT NULL GROUP BY location_id, settled_date
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, settled_date) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    )
    SELECT array_agg(DISTINCT location_id ORDER BY location_id)
      FROM (SELECT location_id FROM days UNION ALL SELECT location_id FROM hours
            UNION ALL SELECT location_id FROM settled) AS changed INTO touched;
  PERFORM dashboard_announce(touched);
  RETURN NULL;
END
$$;

-- Statement triggers with transition tables: a batch of 5,000 seeded payments is one aggregate, not 5,000 upserts.
-- (PostgreSQL allows no column list on an UPDATE trigger with transition tables; updates that move no money add
-- nothing, see dashboard_delta_sql.)
CREATE TRIGGER transactions_rollups_insert AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_insert();
CREATE TRIGGER transactions_rollups_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_change();
CREATE TRIGGER transactions_rollups_delete AFTER DELETE ON transactions
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_change();

-- Recomputes the rollups of some locations (NULL: all) from their payments: the backfill below, a location whose
-- time zone changed (its local days move), and the benchmark's bulk load.
CREATE FUNCTION dashboard_rebuild_rollups(only_locations integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
DECLARE
  touched integer[];
BEGIN
  DELETE FROM payment_day_rollups WHERE only_locations IS NULL OR location_id = ANY (only_locations);
  DELETE FROM payment_hour_rollups WHERE only_locations IS NULL OR location_id = ANY (only_locations);
  DELETE FROM settled_day_rollups WHERE only_locations IS NULL OR location_id = ANY (only_locations);
  EXECUTE dashboard_delta_sql(format(
    'SELECT location_id, payment_time, payment_amount, fee, refunded_amount, settled_date, 1 AS sign
       FROM transactions WHERE %L::integer[] IS NULL OR location_id = ANY (%L::integer[])',
    only_locations, only_locations)) INTO touched;
  PERFORM dashboard_announce(touched);
END
$$;

CREATE FUNCTION dashboard_rollups_on_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payment_day_rollups;
  DELETE FROM payment_hour_rollups;
  DELETE FROM settled_day_rollups;
  RETURN NULL;
END
$$;
CREATE TRIGGER transactions_rollups_truncate AFTER TRUNCATE ON transactions
  FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_truncate();

CREATE FUNCTION dashboard_rollups_on_time_zone() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM dashboard_rebuild_rollups(ARRAY[NEW.location_id]);
  RETURN NULL;
END
$$;
CREATE TRIGGER locations_rollups_time_zone AFTER UPDATE OF time_zone ON locations
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION dashboard_rollups_on_time_zone();

-- A location that goes takes its rollups with it (its payments go by cascade; their triggers subtract first).
CREATE FUNCTION dashboard_rollups_on_location_delete() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payment_day_rollups WHERE location_id = OLD.location_id;
  DELETE FROM payment_hour_rollups WHERE location_id = OLD.location_id;
  DELETE FROM settled_day_rollups WHERE location_id = OLD.location_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER locations_rollups_delete AFTER DELETE ON locations
  FOR EACH ROW EXECUTE FUNCTION dashboard_rollups_on_location_delete();

-- The payments already there.
SELECT dashboard_rebuild_rollups(NULL);
