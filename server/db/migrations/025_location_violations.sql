-- Violations per location (issue 38; docs/decisions/0097-citations-written-offline-uploaded-once.md).
--
-- Each location has its own list of violations an officer chooses from, with a usual fine each. default_violations
-- is the one place the defaults live on the server: every location that exists now gets them (the backfill below),
-- and every location inserted later gets them from the trigger, whoever inserts it (the console, Enforcement Lite,
-- the seeds, Database Copy's merge). The console ships the same list (DEFAULT_VIOLATIONS in
-- src/contract/violations.ts) for a device that never downloaded its location's list; a test holds the two equal.
CREATE TABLE default_violations (
  code       text PRIMARY KEY CHECK (code ~ '^[a-z0-9_]{1,40}$'),
  label      text NOT NULL,
  fine_cents integer NOT NULL CHECK (fine_cents BETWEEN 0 AND 100000),
  position   integer NOT NULL UNIQUE
);
INSERT INTO default_violations (code, label, fine_cents, position) VALUES
  ('no_payment', 'No payment', 5000, 1),
  ('expired', 'Payment expired', 3500, 2),
  ('overstay', 'Over the maximum stay', 3500, 3),
  ('reserved_space', 'Parked in a reserved space', 7500, 4),
  ('accessible_space', 'Accessible space without a permit', 25000, 5),
  ('fire_lane', 'Fire lane or no-parking zone', 15000, 6),
  ('two_spaces', 'Across two spaces', 2500, 7);

-- A violation is never deleted, only deactivated (active = false): citations name it by code, and a device that
-- downloaded the list before the change may still upload one with it. A location's rows go with the location (a
-- location with citations cannot be deleted).
CREATE TABLE location_violations (
  location_id integer NOT NULL REFERENCES locations (location_id) ON DELETE CASCADE,
  code        text NOT NULL CHECK (code ~ '^[a-z0-9_]{1,40}$'),
  label       text NOT NULL CHECK (length(label) BETWEEN 1 AND 80),
  fine_cents  integer NOT NULL CHECK (fine_cents BETWEEN 0 AND 100000),
  position    integer NOT NULL,
  active      boolean NOT NULL DEFAULT true,
  version     integer NOT NULL DEFAULT 1,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (location_id, code)
);
-- Two active violations of one location never share a label: the officer tells them apart by it.
CREATE UNIQUE INDEX location_violations_active_label_idx ON location_violations (location_id, lower(label)) WHERE active;

INSERT INTO location_violations (location_id, code, label, fine_cents, position)
SELECT l.location_id, d.code, d.label, d.fine_cents, d.position FROM locations l CROSS JOIN default_violations d;

CREATE FUNCTION location_violations_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO location_violations (location_id, code, label, fine_cents, position)
  SELECT NEW.location_id, d.code, d.label, d.fine_cents, d.position FROM default_violations d
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
CREATE TRIGGER locations_violations_defaults AFTER INSERT ON locations
  FOR EACH ROW EXECUTE FUNCTION location_violations_defaults();

-- A citation keeps the label its violation had when it arrived: the office reads what the officer chose, whatever
-- the list says later. Its code must be on its location's list (the foreign key also keeps a used code from ever
-- being deleted).
ALTER TABLE citations ADD COLUMN violation_label text;
UPDATE citations c SET violation_label = coalesce((SELECT d.label FROM default_violations d WHERE d.code = c.violation), c.violation);
ALTER TABLE citations ALTER COLUMN violation_label SET NOT NULL;
ALTER TABLE citations ADD CONSTRAINT citations_violation_fkey
  FOREIGN KEY (location_id, violation) REFERENCES location_violations (location_id, code);
