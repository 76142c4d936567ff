-- The transaction search at operator scale (1,000,000 payments over 50 locations: `npm run bench:lists`, BENCHMARKS.md
-- "Lists (transactions at operator scale)"). Every list page runs two queries: the page's keys, then its rows
-- (server/db/paging.ts, pageOf with `keyed`), and a count that stops at 10,001 matches. With the indexes below, both
-- are answered from one index range wherever the filter allows, most of them without reading the table (index-only:
-- the location of each entry is in the index, for the user's location scope).

-- Plate fragments of 2 characters: trigrams (003) need 3, so ILIKE '%AB%' scanned every payment to count. The pairs
-- of adjacent characters of the lower-cased plate, as ILIKE compares it: server/db/transactions.ts searches a
-- 2-character fragment (letters and digits) as `plate_bigrams(license_plate) @> ARRAY[lower(fragment)]`, which holds
-- exactly when the ILIKE would.
CREATE FUNCTION plate_bigrams(plate text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  lowered text := lower(plate);
  pairs text[] := '{}';
BEGIN
  FOR i IN 1 .. char_length(lowered) - 1 LOOP
    pairs := pairs || substr(lowered, i, 2);
  END LOOP;
  RETURN pairs;
END
$$;
CREATE INDEX transactions_plate_bigram_idx ON transactions USING gin (plate_bigrams(license_plate));

-- Refunded and partially refunded payments (1–2 % of them): counted and paged from this small index.
CREATE INDEX transactions_refund_status_idx ON transactions (status, payment_time DESC, transaction_id DESC)
  INCLUDE (location_id) WHERE status <> 'paid';

-- The sort keys with the unique tie-breaker and the location: a page's keys (and a deep page's 10,000 skipped ones)
-- come from the index alone, with the location scope checked on the entries.
DROP INDEX transactions_payment_time_idx;
CREATE INDEX transactions_payment_time_idx ON transactions (payment_time DESC, transaction_id DESC) INCLUDE (location_id);
DROP INDEX transactions_amount_idx;
CREATE INDEX transactions_amount_idx ON transactions (payment_amount, transaction_id) INCLUDE (location_id, payment_time);
CREATE INDEX transactions_plate_idx ON transactions (license_plate, transaction_id) INCLUDE (location_id);
CREATE INDEX transactions_id_location_idx ON transactions (transaction_id) INCLUDE (location_id);

-- The last 4 phone digits, newest first as the list shows them, with the location.
DROP INDEX transactions_phone_last4_idx;
CREATE INDEX transactions_phone_last4_idx ON transactions (phone_last4, payment_time DESC, transaction_id DESC)
  INCLUDE (location_id);
