-- Money-moving commits no longer NOTIFY (issue 12, bench:money; docs/dashboards.md "The live stream").
--
-- 006's dashboard_announce sent pg_notify('dashboard_changes', …) once per statement that moved money. PostgreSQL
-- queues a notification at commit under one lock for the whole database, whether anyone listens or not, so every
-- refund, redemption and payment waited for every other's commit there: on 2 cores, 32 clients refunding distinct
-- payments, 0.86–0.92 ms of PostgreSQL CPU a refund without it against 1.00–1.03 ms with it, and 1,089–1,132
-- refunds/s against 973–1,019 (bench:money, 2026-11-24, A/B in one run).
--
-- Now a statement that changes the rollups only takes the next change id (a sequence: no lock held to commit, nothing
-- written to any table), and the API's change feed (server/dashboards/change-feed.ts) reads the sequence a few times
-- a second while a live stream is open. The ids keep their meaning: the real-time summary still reports the last one
-- it includes.
CREATE OR REPLACE FUNCTION dashboard_announce(touched integer[]) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF touched IS NOT NULL THEN
    PERFORM nextval('dashboard_change_seq');
  END IF;
END
$$;
