-- Search at a million tickets (issue 16: customer search p99 <= 100 ms; issue 13: the inbox search).
-- Measured before (bench/RESULTS.md, "Search at a million tickets"): every search computed
-- to_tsvector() of each ticket and comment of the caller's scope at query time, row by row, and the
-- text indexes were led by the word, not by the tenant, so the staff search of a common word read the
-- whole installation's posting list before keeping the portal's rows.
--
-- Now the vectors are stored: generated columns, computed by PostgreSQL on every insert and update
-- whoever writes (import, portal, staff desk, integration API), so no writer can forget them and a
-- reader only compares. The text indexes are led by the scope of their reader (btree_gin lets a GIN
-- index hold the integer column beside the words): the staff search reads one portal's entries. The
-- customer search stays on the scope's own btree indexes (a contact's tickets, a company's), where a
-- stored vector makes each row a comparison.
-- Adding a stored generated column rewrites the table: on a populated database this migration takes
-- the time of one pass over tickets and comments (about a minute per million rows on a small machine).
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', "title" || ' ' || "description")) STORED;
--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD COLUMN "search_vector" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple', "message")) STORED;
--> statement-breakpoint
-- The expression indexes of 0008 are replaced by the portal-led ones below (nothing computes the
-- expression any more).
DROP INDEX "tickets_fts_idx";
--> statement-breakpoint
DROP INDEX "ticket_comments_fts_idx";
--> statement-breakpoint
DROP INDEX "tickets_title_trgm_idx";
--> statement-breakpoint
CREATE INDEX "tickets_search_idx" ON "tickets" USING gin ("portal_id", "search_vector");
--> statement-breakpoint
CREATE INDEX "ticket_comments_search_idx" ON "ticket_comments" USING gin ("portal_id", "search_vector");
--> statement-breakpoint
CREATE INDEX "tickets_title_trgm_idx" ON "tickets" USING gin ("portal_id", "title" gin_trgm_ops);
