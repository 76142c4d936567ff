-- The real-time dashboard reads each location's hours of today and of the same weekday a week ago from
-- payment_hour_rollups (server/db/dashboards.ts, about 2,000 rows for 50 locations). Those rows sit on as many heap
-- pages (the rollups of all locations are written hour by hour, side by side), so the read cost one page visit per
-- row: ~6 ms of the summary's ~11 (bench:dashboards, 5,000,000 payments). With the two figures it reads in the key's
-- index, the read is an index-only scan (~300 pages, 2.6 ms). One index, not a second covering one: the key is what
-- every rollup upsert (ON CONFLICT (location_id, hour_start)) already writes. Refunds move only refunded_cents, which
-- stays out of the index, so their rollup updates can still be HOT.
ALTER TABLE payment_hour_rollups
  DROP CONSTRAINT payment_hour_rollups_pkey,
  ADD CONSTRAINT payment_hour_rollups_pkey PRIMARY KEY (location_id, hour_start) INCLUDE (payments, gross_cents);
