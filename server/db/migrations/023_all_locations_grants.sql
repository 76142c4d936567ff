-- Locations join their creators' access (issue 34; docs/users-and-roles.md "All locations, now and later").
--
-- A role may hold a feature at a level at all locations, now and later: every location of the full offering, those
-- that exist and those added afterwards, so an admin who adds a location can at once configure its rates, add a promo
-- code there and see it in Transactions. One row per (role, feature): the level includes the ones below it, as in
-- role_permissions. Enforcement Lite locations (offering 'lite', 010) are another product that superusers add: the
-- grant does not reach them; a role still reaches one only by listing it in role_permissions.
--
-- The permission record (spec §3) stays lists of ids: every reader that builds one (server/db/staff.ts, roles.ts)
-- adds today's full-offering location ids at this level, so nothing is copied into role_permissions and a location
-- added later is in the very next record.
CREATE TABLE role_all_locations (
  role_id integer NOT NULL REFERENCES roles (role_id) ON DELETE CASCADE,
  feature text NOT NULL CHECK (feature IN ('pc', 'ur', 'u', 'rs', 'e', 'rp', 'rd', 'sd', 'lo')),
  level   text NOT NULL CHECK (level IN ('view', 'add', 'edit', 'delete')),
  PRIMARY KEY (role_id, feature)
);
