-- Refunds and redemptions under load (issue 12, bench:money; BENCHMARKS.md "Money",
-- docs/decisions/0073-refunds-one-lock-per-payment.md). Measured on one PostgreSQL backend, serial refunds of
-- distinct payments (CPU of the backend per refund): 1.4–1.7 ms before; 0.85–1.15 ms with the UPDATE rollup
-- trigger below; ~0.4 ms as the one function call of 2.
--
-- 1. The UPDATE rollup trigger with static SQL. 006's dashboard_rollups_on_change built its statement with format()
--    and EXECUTEd it, so every UPDATE of a payment (each refund) planned a four-CTE statement afresh; static SQL in
--    the trigger function's own body is planned once per connection (as 006 already does for inserts). Still a
--    statement trigger with transition tables, so a bulk update is one aggregate and one announcement, and an update
--    that moves no money upserts nothing. (A row trigger with WHEN on the money columns measured about the same.)
--    Deletes keep 006's function: they are rare (a location going, the seed's replacements).
CREATE FUNCTION dashboard_rollups_on_update() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  touched integer[];
BEGIN
    WITH delta AS (
      SELECT location_id, payment_time, payment_amount, fee, refunded_amount, settled_date, 1 AS sign FROM new_rows
      UNION ALL
      SELECT location_id, payment_time, payment_amount, fee, refunded_amount, settled_date, -1 AS sign FROM old_rows
    ),
    located AS (
      SELECT d.location_id, d.sign, d.settled_date,
             (d.payment_time AT TIME ZONE l.time_zone)::date AS local_day,
             date_trunc('hour', d.payment_time, l.time_zone) AS hour_start,
             d.sign * (d.payment_amount * 100)::bigint AS gross,
             d.sign * (d.fee * 100)::bigint AS fee,
             d.sign * (d.refunded_amount * 100)::bigint AS refunded
        FROM delta d JOIN locations l ON l.location_id = d.location_id
    ),
    days AS (
      INSERT INTO payment_day_rollups AS r (location_id, local_day, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, local_day, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, local_day
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, local_day) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    hours AS (
      INSERT INTO payment_hour_rollups AS r (location_id, hour_start, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, hour_start, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located GROUP BY location_id, hour_start
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, hour_start) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    ),
    settled AS (
      INSERT INTO settled_day_rollups AS r (location_id, settled_date, payments, gross_cents, fee_cents, refunded_cents)
      SELECT location_id, settled_date, sum(sign), sum(gross), sum(fee), sum(refunded)
        FROM located WHERE settled_date IS NOT NULL GROUP BY location_id, settled_date
      HAVING sum(sign) <> 0 OR sum(gross) <> 0 OR sum(fee) <> 0 OR sum(refunded) <> 0
      ON CONFLICT (location_id, settled_date) DO UPDATE SET
        payments = r.payments + excluded.payments, gross_cents = r.gross_cents + excluded.gross_cents,
        fee_cents = r.fee_cents + excluded.fee_cents, refunded_cents = r.refunded_cents + excluded.refunded_cents
      RETURNING location_id
    )
    SELECT array_agg(DISTINCT location_id ORDER BY location_id)
      FROM (SELECT location_id FROM days UNION ALL SELECT location_id FROM hours
            UNION ALL SELECT location_id FROM settled) AS changed INTO touched;
  PERFORM dashboard_announce(touched);
  RETURN NULL;
END
$$;
DROP TRIGGER transactions_rollups_update ON transactions;
CREATE TRIGGER transactions_rollups_update AFTER UPDATE ON transactions
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_rollups_on_update();

-- A key already taken (a refund's or a redemption's): the first answer again when it was the same request, else
-- keyReused (another amount, reason, ticket or payment; another code, location, plate or quote). A key without an
-- answer is never seen here: it is claimed and answered in one transaction.
CREATE FUNCTION idempotent_replay(kept_hash text, kept_response jsonb, request_hash text) RETURNS jsonb
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kept_hash = request_hash AND kept_response IS NOT NULL
              THEN jsonb_build_object('kind', 'replayed', 'result', kept_response)
              ELSE jsonb_build_object('kind', 'keyReused') END
$$;

-- 2. A refund as one call (server/db/refunds.ts). It was BEGIN, a statement that claimed the key and locked the
--    payment, a four-CTE write, COMMIT: four round trips, two statements planned on every call, and the row lock held
--    across the Node thread's turn between them. Here one statement, its plans cached per connection, the lock held
--    for the function's own run only.
--
--    Order, so that a refusal writes nothing and needs no rollback: lock the payment (FOR UPDATE: refunds of one payment
--    queue here), then a key already taken answers as before (the same request: its kept answer; another: keyReused);
--    then the checks (hidden → notFound, not refundable here → forbidden, above paid − refunded as it is now under the
--    lock → exceeds, the ticket's payment and state); then the key is claimed (INSERT … ON CONFLICT DO NOTHING: a
--    concurrent request with the same key for another payment waits on the key's unique index until it ends, then
--    reads its answer), then the refund, the payment, the ticket, the audit rows and the kept answer.
--    Each statement of a plpgsql function takes a fresh snapshot under READ COMMITTED, so a request that waited for
--    the row lock or the key sees what the one before it committed.
--
--    may_view / may_refund: the locations where the caller has refund-portal view / edit; NULL for all (superusers).
--    The permission rules stay in TypeScript (src/permissions/rules.ts); only their answer for this feature comes in.
--    Returns the outcome as jsonb: {kind: done, result} | {kind: replayed, result} | {kind: keyReused} | {kind: notFound} |
--    {kind: forbidden, location_id} | {kind: exceeds, paid_cents, refunded_cents} |
--    {kind: ticketMismatch} | {kind: ticketNotApproved, ticket_status}.
CREATE FUNCTION refund_payment(
  actor_id integer, actor_email text, idem_key text, request_hash text, payment_id bigint, amount_cents bigint,
  refund_reason text, refund_ticket_id bigint, may_view integer[], may_refund integer[]
) RETURNS jsonb
  LANGUAGE plpgsql AS $$
DECLARE
  payment record;
  kept record;
  ticket record;
  claimed boolean;
  refunded_after bigint;
  new_status text;
  answer jsonb;
  refund record;
BEGIN
  SELECT t.location_id, (t.payment_amount * 100)::bigint AS paid_cents, (t.refunded_amount * 100)::bigint AS refunded_cents,
         t.status
    INTO payment FROM transactions t WHERE t.transaction_id = payment_id FOR UPDATE;

  SELECT k.request_hash, k.response INTO kept FROM refund_idempotency_keys k WHERE k.user_id = actor_id AND k.key = idem_key;
  IF FOUND THEN
    RETURN idempotent_replay(kept.request_hash, kept.response, request_hash);
  END IF;

  IF payment.location_id IS NULL OR NOT (may_view IS NULL OR payment.location_id = ANY (may_view)) THEN
    RETURN jsonb_build_object('kind', 'notFound');
  END IF;
  IF NOT (may_refund IS NULL OR payment.location_id = ANY (may_refund)) THEN
    RETURN jsonb_build_object('kind', 'forbidden', 'location_id', payment.location_id);
  END IF;
  IF amount_cents > payment.paid_cents - payment.refunded_cents THEN
    RETURN jsonb_build_object('kind', 'exceeds', 'paid_cents', payment.paid_cents, 'refunded_cents', payment.refunded_cents);
  END IF;
  IF refund_ticket_id IS NOT NULL THEN
    SELECT r.transaction_id, r.status INTO ticket FROM refund_tickets r WHERE r.ticket_id = refund_ticket_id FOR UPDATE;
    IF NOT FOUND OR ticket.transaction_id <> payment_id THEN
      RETURN jsonb_build_object('kind', 'ticketMismatch');
    END IF;
    IF ticket.status IN ('open', 'rejected') THEN
      RETURN jsonb_build_object('kind', 'ticketNotApproved', 'ticket_status', ticket.status);
    END IF;
  END IF;

  INSERT INTO refund_idempotency_keys (user_id, key, request_hash) VALUES (actor_id, idem_key, request_hash)
    ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS claimed = ROW_COUNT;
  IF NOT claimed THEN
    SELECT k.request_hash, k.response INTO kept FROM refund_idempotency_keys k WHERE k.user_id = actor_id AND k.key = idem_key;
    RETURN idempotent_replay(kept.request_hash, kept.response, request_hash);
  END IF;

  refunded_after := payment.refunded_cents + amount_cents;
  new_status := CASE WHEN refunded_after >= payment.paid_cents THEN 'refunded' ELSE 'partially_refunded' END;
  INSERT INTO refunds (transaction_id, amount, reason, created_by, ticket_id)
    VALUES (payment_id, amount_cents::numeric / 100, refund_reason, actor_id, refund_ticket_id)
    RETURNING refund_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at INTO refund;
  UPDATE transactions SET refunded_amount = refunded_amount + amount_cents::numeric / 100, status = new_status
   WHERE transaction_id = payment_id;

  -- Nested: `ticket` is unassigned without a ticket, and plpgsql does not promise to skip the second test.
  IF refund_ticket_id IS NOT NULL THEN
    IF ticket.status <> 'refunded' THEN
      UPDATE refund_tickets SET status = 'refunded', version = version + 1, updated_at = now(), updated_by = actor_id
       WHERE ticket_id = refund_ticket_id;
      INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
        VALUES (actor_id, actor_email, 'refund_ticket', refund_ticket_id::text, 'refund',
                jsonb_build_object('status', ticket.status), jsonb_build_object('status', 'refunded'));
    END IF;
  END IF;

  INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
    VALUES (actor_id, actor_email, 'transaction', payment_id::text, 'refund',
            jsonb_build_object('refunded_cents', payment.refunded_cents, 'status', payment.status),
            jsonb_strip_nulls(jsonb_build_object('refunded_cents', refunded_after, 'status', new_status,
              'refund_cents', amount_cents, 'reason', refund_reason, 'ticket_id', refund_ticket_id))
              || jsonb_build_object('refund_id', refund.refund_id));

  answer := jsonb_build_object(
    'refund_id', refund.refund_id, 'transaction_id', payment_id, 'amount_cents', amount_cents, 'reason', refund_reason,
    'ticket_id', refund_ticket_id, 'created_at', refund.created_at, 'payment_amount_cents', payment.paid_cents,
    'refunded_cents', refunded_after, 'remaining_cents', payment.paid_cents - refunded_after, 'status', new_status);
  UPDATE refund_idempotency_keys SET refund_id = refund.refund_id, response = answer
   WHERE user_id = actor_id AND key = idem_key;
  RETURN jsonb_build_object('kind', 'done', 'result', answer);
END
$$;

-- 3. A redemption as one call (server/db/promo-redemptions.ts), for the same reasons and in the same order: the code's
--    row is the lock every redemption of it queues on (a hot code is serial by design), so what matters most is how
--    long it is held: one function run instead of three round trips through a busy Node thread. Lock the code
--    (any case), answer a key already taken, check active, window, location, total cap and the plate's cap, claim the
--    key, then write the redemption, the count, the audit row and the kept answer.
--    The discount (computed here only; it was discountCents in TypeScript): a percentage rounds half up to the cent,
--    in exact arithmetic; an amount never exceeds the quote; free minutes take no money.
--    Returns {kind: done, result} | {kind: replayed, result} | {kind: keyReused} | {kind: unknownCode} |
--    {kind: refused, reason, code, valid_from, valid_to, uses, total_cap, per_plate_cap}.
CREATE FUNCTION redeem_promo_code(
  actor_id integer, actor_email text, idem_key text, request_hash text, promo_code text, at_location integer,
  plate text, quote bigint, redeemed_at timestamptz
) RETURNS jsonb
  LANGUAGE plpgsql AS $$
DECLARE
  promo record;
  kept record;
  refusal text;
  plate_uses bigint;
  discount bigint;
  free_minutes integer;
  claimed boolean;
  new_redemption_id bigint;
  answer jsonb;
BEGIN
  SELECT p.promo_code_id, p.code, p.discount_type, p.discount_value, p.total_cap, p.per_plate_cap, p.uses, p.active,
         p.valid_from, p.valid_to
    INTO promo FROM promo_codes p WHERE lower(p.code) = lower(promo_code) FOR UPDATE;

  SELECT k.request_hash, k.response INTO kept FROM promo_redemption_keys k WHERE k.user_id = actor_id AND k.key = idem_key;
  IF FOUND THEN
    RETURN idempotent_replay(kept.request_hash, kept.response, request_hash);
  END IF;

  IF promo.promo_code_id IS NULL THEN
    RETURN jsonb_build_object('kind', 'unknownCode');
  END IF;
  IF NOT promo.active THEN
    refusal := 'inactive';
  ELSIF promo.valid_from > redeemed_at THEN
    refusal := 'notYetValid';
  ELSIF promo.valid_to <= redeemed_at THEN
    refusal := 'expired';
  ELSIF NOT EXISTS (SELECT 1 FROM promo_code_locations pl
                     WHERE pl.promo_code_id = promo.promo_code_id AND pl.location_id = at_location) THEN
    refusal := 'otherLocation';
  ELSIF promo.total_cap IS NOT NULL AND promo.uses >= promo.total_cap THEN
    refusal := 'usedUp';
  ELSIF promo.per_plate_cap IS NOT NULL THEN
    SELECT count(*) INTO plate_uses FROM promo_redemptions r
     WHERE r.promo_code_id = promo.promo_code_id AND r.license_plate = plate;
    IF plate_uses >= promo.per_plate_cap THEN
      refusal := 'plateCap';
    END IF;
  END IF;
  IF refusal IS NOT NULL THEN
    RETURN jsonb_build_object('kind', 'refused', 'reason', refusal, 'code', promo.code,
      'valid_from', to_char(promo.valid_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'valid_to', to_char(promo.valid_to AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'uses', promo.uses, 'total_cap', promo.total_cap, 'per_plate_cap', promo.per_plate_cap);
  END IF;

  INSERT INTO promo_redemption_keys (user_id, key, request_hash) VALUES (actor_id, idem_key, request_hash)
    ON CONFLICT DO NOTHING;
  GET DIAGNOSTICS claimed = ROW_COUNT;
  IF NOT claimed THEN
    SELECT k.request_hash, k.response INTO kept FROM promo_redemption_keys k WHERE k.user_id = actor_id AND k.key = idem_key;
    RETURN idempotent_replay(kept.request_hash, kept.response, request_hash);
  END IF;

  discount := CASE promo.discount_type
                WHEN 'percent' THEN floor((quote * promo.discount_value + 50) / 100.0)::bigint
                WHEN 'amount' THEN least(promo.discount_value, quote)
                ELSE 0 END;
  free_minutes := CASE WHEN promo.discount_type = 'minutes' THEN promo.discount_value ELSE 0 END;
  INSERT INTO promo_redemptions (promo_code_id, location_id, license_plate, quote_cents, discount_cents, free_minutes, redeemed_at)
    VALUES (promo.promo_code_id, at_location, plate, quote, discount, free_minutes, redeemed_at)
    RETURNING redemption_id INTO new_redemption_id;
  UPDATE promo_codes SET uses = uses + 1 WHERE promo_code_id = promo.promo_code_id;
  answer := jsonb_build_object(
    'promo_code_id', promo.promo_code_id, 'code', promo.code, 'quote_cents', quote, 'discount_cents', discount,
    'free_minutes', free_minutes, 'total_cents', quote - discount, 'uses', promo.uses + 1,
    'remaining', promo.total_cap - promo.uses - 1, 'redemption_id', new_redemption_id);
  -- Under its own entity, so that a busy code's History keeps showing its edits.
  INSERT INTO audit_log (actor_user_id, actor_email, entity, entity_id, action, before, after)
    VALUES (actor_id, actor_email, 'promo_redemption', new_redemption_id::text, 'redeem', NULL,
            answer || jsonb_build_object('location_id', at_location, 'license_plate', plate));
  UPDATE promo_redemption_keys SET redemption_id = new_redemption_id, response = answer
   WHERE user_id = actor_id AND key = idem_key;
  RETURN jsonb_build_object('kind', 'done', 'result', answer);
END
$$;
