-- Enforcement Lite (issue 14, docs/enforcement-lite.md): the lighter offering for operators who only enforce.
-- Its locations are ordinary `locations` rows marked `offering = 'lite'` (so payments, bookings and monthly parkers
-- reference them and the enforcement sync reads them like any other), with the operator's name. Its officers are
-- ordinary `users` rows marked `lite_officer`, holding no role: their permissions are enforcement view at the lite
-- locations listed in `lite_officer_locations`, merged into the grants on every API call (server/db/staff.ts).

ALTER TABLE locations
  ADD COLUMN offering      text NOT NULL DEFAULT 'full' CHECK (offering IN ('full', 'lite')),
  ADD COLUMN operator_name text CHECK (operator_name IS NULL OR btrim(operator_name) <> ''),
  ADD CONSTRAINT locations_lite_has_operator CHECK (offering = 'full' OR operator_name IS NOT NULL);
-- Both sections list one offering, by name.
CREATE INDEX locations_offering_name_idx ON locations (offering, lower(name), location_id);

ALTER TABLE users
  ADD COLUMN lite_officer boolean NOT NULL DEFAULT false,
  -- A lite officer gets exactly enforcement view at their lite locations: a role would grant more.
  ADD CONSTRAINT users_lite_officer_has_no_role CHECK (NOT lite_officer OR role_id IS NULL);

CREATE TABLE lite_officer_locations (
  user_id     integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  location_id integer NOT NULL REFERENCES locations (location_id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, location_id)
);
CREATE INDEX lite_officer_locations_location_id_idx ON lite_officer_locations (location_id);
