-- Idempotency keys of POST /promo-codes/redeem, as refund_idempotency_keys (008) are for refunds: a checkout that
-- retries a redemption (a timeout, a double tap) sends the same key and gets the first answer again instead of using
-- the code, and its cap, a second time. The key is claimed in the redemption's own transaction; a refusal (409) rolls
-- it back with everything else, so only redemptions that counted are kept. Keys are dropped after a day
-- (server/db/idempotency-keys.ts): a retry comes within seconds or minutes, never the next day.
CREATE TABLE promo_redemption_keys (
  user_id       integer NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  key           text NOT NULL CHECK (key <> '' AND length(key) <= 255),
  request_hash  text NOT NULL,
  redemption_id bigint REFERENCES promo_redemptions (redemption_id) ON DELETE CASCADE,
  response      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX promo_redemption_keys_created_at_idx ON promo_redemption_keys (created_at);
CREATE INDEX refund_idempotency_keys_created_at_idx ON refund_idempotency_keys (created_at);
