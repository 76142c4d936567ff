-- Locations, and the staff model of spec §3/§6: a user has one role; a role grants, per feature and access level,
-- a set of locations (one row each), or everything when it is a superuser role.

CREATE TABLE locations (
  location_id          serial PRIMARY KEY,
  name                 text NOT NULL CHECK (name <> ''),
  address              text NOT NULL,
  time_zone            text NOT NULL,
  capacity             integer NOT NULL DEFAULT 0 CHECK (capacity >= 0),
  status               text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  enforcement_enabled  boolean NOT NULL DEFAULT false,
  grace_period_minutes integer NOT NULL DEFAULT 0 CHECK (grace_period_minutes >= 0),
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE roles (
  role_id    serial PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  superuser  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE role_permissions (
  role_id     integer NOT NULL REFERENCES roles (role_id) ON DELETE CASCADE,
  feature     text NOT NULL CHECK (feature IN ('pc', 'ur', 'u', 'rs', 'e', 'rp', 'rd', 'sd', 'lo')),
  level       text NOT NULL CHECK (level IN ('view', 'add', 'edit', 'delete')),
  location_id integer NOT NULL REFERENCES locations (location_id) ON DELETE CASCADE,
  -- Leading with role_id, the key also serves the one lookup that matters: every grant of a role.
  PRIMARY KEY (role_id, feature, level, location_id)
);
-- Deleting a location cascades here; without this index that would scan the whole table.
CREATE INDEX role_permissions_location_id_idx ON role_permissions (location_id);

CREATE TABLE users (
  user_id         serial PRIMARY KEY,
  -- Identity providers treat e-mails case-insensitively; storing them lower-cased keeps the unique index honest.
  email           text NOT NULL UNIQUE CHECK (email = lower(email) AND email <> ''),
  display_name    text,
  -- A user without a role holds no permissions.
  role_id         integer REFERENCES roles (role_id) ON DELETE SET NULL,
  status          text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  last_sign_in_at timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_role_id_idx ON users (role_id);
