-- Staff are bound to their identity-provider account (the Firebase uid), not to an e-mail address: an account
-- deleted and signed up again with the same e-mail is another identity and gets nothing until an administrator
-- re-links it (server/db/staff-identity.ts, docs/api.md "Identity binding"). The e-mail stays the invitation: the first
-- verified sign-in with it claims the row by recording the uid.
ALTER TABLE users
  ADD COLUMN identity_uid       text UNIQUE CHECK (identity_uid <> ''),
  ADD COLUMN identity_linked_at timestamptz,
  ADD CONSTRAINT users_identity_linked_at_with_uid CHECK ((identity_uid IS NULL) = (identity_linked_at IS NULL));
