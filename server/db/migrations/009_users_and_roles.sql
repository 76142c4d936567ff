-- Users and roles edited in the console (issue 13, docs/users-and-roles.md): versions for the edit screens' 409s,
-- who changed a row last, and role names unique whatever their case ("Finance" and "finance" are one role to a
-- reader). Grants stay in role_permissions; permissions are read from them on every API call
-- (server/http/staff-auth.ts), so a changed role takes effect on the next call of everyone who holds it.

ALTER TABLE roles
  ADD COLUMN version    integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  ADD COLUMN updated_by integer REFERENCES users (user_id) ON DELETE SET NULL,
  ADD CONSTRAINT roles_name_not_blank CHECK (btrim(name) <> '');
CREATE UNIQUE INDEX roles_name_lower_key ON roles (lower(name));

ALTER TABLE users
  ADD COLUMN version    integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  ADD COLUMN updated_by integer REFERENCES users (user_id) ON DELETE SET NULL,
  ADD COLUMN invited_by integer REFERENCES users (user_id) ON DELETE SET NULL;
-- The staff list sorts by name and searches name and e-mail; staff tables are small, so plain indexes suffice.
CREATE INDEX users_display_name_idx ON users (lower(display_name), user_id);
