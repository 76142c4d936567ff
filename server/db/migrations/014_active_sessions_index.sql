-- The real-time dashboard counts each location's active sessions (expiry after now, paid by now) on every summary
-- (server/db/dashboards.ts). With payment_time in the expiry index the count is an index-only scan instead of a heap
-- fetch per active session; the index keeps its name, columns and order, so the enforcement sync's range scans
-- (location, expiry) use it as before, and the table keeps its number of indexes.
DROP INDEX transactions_expiry_idx;
CREATE INDEX transactions_expiry_idx ON transactions (location_id, expiry_date_time) INCLUDE (payment_time);
