-- Issue 28 item 3: agents search a ticket by its number as they say it ("118", "0118", "2026/0118",
-- "T-2026-00118"): the progressive of the portal's numbering, looked up per portal (a few tickets a
-- progressive: one a year).
CREATE INDEX IF NOT EXISTS "tickets_progressive_idx" ON "tickets" USING btree ("portal_id", "internal_annual_progressive");
