-- Refunds against tickets (issue 34, docs/api.md "Refund tickets"): a ticket's refunds never sum above what it asked for,
-- and only an approved ticket refunds. refund_payment (015) is replaced, same order and same locks:
--  - the ticket must be `approved` ('refunded' is now closed: 015 let a refunded ticket refund again, up to the payment);
--  - the amount must fit in the ticket's amount_requested less its refunds so far (summed under the payment's row lock,
--    which every refund of the ticket takes first) → {kind: ticketExceeds, requested_cents, refunded_cents};
--  - the ticket becomes `refunded` only once its refunds reach its amount; a partial refund leaves it approved.
-- A key already taken still answers before any of these checks, so replays are unchanged.
CREATE OR REPLACE FUNCTION refund_payment(
  actor_id integer, actor_email text, idem_key text, request_hash text, payment_id bigint, amount_cents bigint,
  refund_reason text, refund_ticket_id bigint, may_view integer[], may_refund integer[]
) RETURNS jsonb
  LANGUAGE plpgsql AS $$
DECLARE
  payment record;
  kept record;
  ticket record;
  ticket_refunded_cents bigint;
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
    SELECT r.transaction_id, r.status, (r.amount_requested * 100)::bigint AS requested_cents INTO ticket
      FROM refund_tickets r WHERE r.ticket_id = refund_ticket_id FOR UPDATE;
    IF NOT FOUND OR ticket.transaction_id <> payment_id THEN
      RETURN jsonb_build_object('kind', 'ticketMismatch');
    END IF;
    IF ticket.status <> 'approved' THEN
      RETURN jsonb_build_object('kind', 'ticketNotApproved', 'ticket_status', ticket.status);
    END IF;
    -- All refunds of the ticket are refunds of this payment, whose row lock is held: the sum cannot move meanwhile.
    SELECT coalesce(sum(r.amount * 100), 0)::bigint INTO ticket_refunded_cents
      FROM refunds r WHERE r.transaction_id = payment_id AND r.ticket_id = refund_ticket_id;
    IF amount_cents > ticket.requested_cents - ticket_refunded_cents THEN
      RETURN jsonb_build_object('kind', 'ticketExceeds', 'requested_cents', ticket.requested_cents,
                                'refunded_cents', ticket_refunded_cents);
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
    IF ticket_refunded_cents + amount_cents = ticket.requested_cents THEN
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
