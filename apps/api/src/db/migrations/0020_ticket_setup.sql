-- The desk's ticket setup (issue 14): deleting a ticket type or status step first counts the tickets
-- pointing to it (409 while any does), and the foreign key's own check on the delete looks for
-- `type_id = $1` / `status_step_id = $1` across every portal. Without these, both are a scan of every
-- ticket. (Groups need none: tickets_inbox_group_idx holds portal and group.)
CREATE INDEX "tickets_type_idx" ON "tickets" ("type_id");
--> statement-breakpoint
CREATE INDEX "tickets_step_idx" ON "tickets" ("status_step_id");
