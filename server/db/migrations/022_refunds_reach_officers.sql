-- Refunds reach the officers (issue 34; docs/enforcement-sync.md "Refunds").
--
-- The enforcement sync finds changed payments by `updated_at` (unix seconds) and now carries `refunded_amount`; a
-- refund changed neither updated_at nor the record, so an officer's cached copy of a refunded payment still said
-- paid. A trigger, not a change of refund_payment (015): every writer of refunded_amount, in the transaction that
-- writes it, moves the payment to a later second, where the next incremental sync finds it. A statement that sets
-- updated_at itself (the seed) keeps its value.
--
-- At least one second later, not merely "now": a payment written and refunded in the same second would otherwise keep
-- its updated_at, and an officer who synced that second holds it already at that cursor position and would never
-- read it again.
CREATE FUNCTION transactions_refund_touches_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.updated_at = OLD.updated_at THEN
    NEW.updated_at := greatest(extract(epoch FROM now())::bigint, OLD.updated_at + 1);
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER transactions_refund_touches_sync BEFORE UPDATE OF refunded_amount ON transactions
  FOR EACH ROW WHEN (NEW.refunded_amount IS DISTINCT FROM OLD.refunded_amount)
  EXECUTE FUNCTION transactions_refund_touches_sync();

-- Officers' stores hold records without refunded_amount (read as nothing refunded): payments refunded before this
-- migration are sent again by the next incremental sync, which brings their refunded amount. (Found through 005's
-- partial index on refunded and partially refunded payments.)
UPDATE transactions SET updated_at = greatest(extract(epoch FROM now())::bigint, updated_at + 1)
 WHERE status <> 'paid' AND refunded_amount > 0;
