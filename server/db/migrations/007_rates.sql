-- Rates (issue 11, docs/rates.md): a configuration per location, and rate sets as dated, versioned rows.
-- A change takes effect at its moment without any job: the set in force is the latest not-cancelled row whose
-- effective_at has come, and a row's status (scheduled / applied / cancelled) is read from the time, never stored.

CREATE TABLE rate_configs (
  location_id       integer PRIMARY KEY REFERENCES locations (location_id) ON DELETE CASCADE,
  currency          text    NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  increment_minutes integer NOT NULL CHECK (increment_minutes BETWEEN 1 AND 1440),
  rounding          text    NOT NULL CHECK (rounding IN ('up', 'nearest')),
  grace_minutes     integer NOT NULL CHECK (grace_minutes BETWEEN 0 AND 1440),
  tax_basis_points  integer NOT NULL CHECK (tax_basis_points BETWEEN 0 AND 10000),
  daily_maximum     text    NOT NULL CHECK (daily_maximum IN ('rolling_24h', 'calendar_day')),
  -- The configuration's own version (edits of this row), and the schedule's: every change scheduled or
  -- cancelled at the location moves it, so an editor working from an older schedule gets a 409.
  version           integer NOT NULL DEFAULT 0,
  schedule_version  integer NOT NULL DEFAULT 0,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  updated_by        integer REFERENCES users (user_id) ON DELETE SET NULL
);

CREATE TABLE rate_sets (
  rate_set_id  integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  location_id  integer NOT NULL REFERENCES locations (location_id) ON DELETE CASCADE,
  effective_at timestamptz NOT NULL,
  rate_set     jsonb   NOT NULL,
  reason       text    NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  created_by   integer REFERENCES users (user_id) ON DELETE SET NULL,
  cancelled_at timestamptz,
  cancelled_by integer REFERENCES users (user_id) ON DELETE SET NULL
);

-- The set in force at a location and its next change: the newest effective_at at or before now, the first after.
CREATE INDEX rate_sets_location_effective ON rate_sets (location_id, effective_at DESC, rate_set_id DESC);
-- The list of changes across locations, newest effective first.
CREATE INDEX rate_sets_effective ON rate_sets (effective_at DESC, rate_set_id DESC);
