-- Citations (issue 38; docs/decisions/0097-citations-written-offline-uploaded-once.md).
--
-- An officer writes a citation on the device and the device names it (citation_id, a UUID) before any network: the
-- upload is retried with that id until it lands, so the id is the idempotency key and the primary key at once. A
-- repeat of the same content answers the row that exists; other content under the same id is refused. Two uploads
-- racing with one id meet at the primary key: the second waits for the first and then finds its row.
-- request_hash is the SHA-256 of the content as received (officer included), what a repeat is compared with.
CREATE TABLE citations (
  citation_id      uuid PRIMARY KEY,
  location_id      integer NOT NULL REFERENCES locations (location_id),
  officer_user_id  integer NOT NULL REFERENCES users (user_id),
  license_plate    text NOT NULL CHECK (license_plate ~ '^[A-Z0-9]{1,16}$'),
  issued_at        timestamptz NOT NULL,
  violation        text NOT NULL,
  fine_cents       integer NOT NULL CHECK (fine_cents BETWEEN 0 AND 100000),
  notes            text NOT NULL DEFAULT '',
  verdict_headline text NOT NULL,
  verdict_detail   text NOT NULL DEFAULT '',
  request_hash     text NOT NULL,
  status           text NOT NULL DEFAULT 'issued' CHECK (status IN ('issued', 'voided')),
  void_reason      text,
  voided_at        timestamptz,
  voided_by        integer REFERENCES users (user_id),
  version          integer NOT NULL DEFAULT 1,
  received_at      timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'voided') = (void_reason IS NOT NULL AND voided_at IS NOT NULL))
);
-- The office's list: by location (the scope) and time, newest first; the plate filter is a fragment of few rows.
CREATE INDEX citations_location_issued_idx ON citations (location_id, issued_at DESC, citation_id DESC);
CREATE INDEX citations_issued_idx ON citations (issued_at DESC, citation_id DESC);
CREATE INDEX citations_officer_idx ON citations (officer_user_id, issued_at DESC);

-- Photos are stored once by their content's SHA-256: the same bytes sent again (a retry, two tabs) are the same
-- photo, and a citation names its photos by hash. A citation has at most 3 (checked under its row's lock).
CREATE TABLE citation_photo_blobs (
  sha256       text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp')),
  size_bytes   integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 1000000),
  bytes        bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE citation_photos (
  citation_id uuid NOT NULL REFERENCES citations (citation_id) ON DELETE CASCADE,
  sha256      text NOT NULL REFERENCES citation_photo_blobs (sha256),
  position    smallint NOT NULL CHECK (position BETWEEN 1 AND 3),
  added_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (citation_id, sha256),
  UNIQUE (citation_id, position)
);
CREATE INDEX citation_photos_sha256_idx ON citation_photos (sha256);
