-- Issue 14 (the desk does what the import can say). The desk's ticket page lists a ticket's task links,
-- and deleting a tag asks how many service contracts still name it: neither had an index to read
-- (task_links is keyed by (portal, event_key), service_contract_tags by (contract, tag)), so each was a
-- scan of the whole table. These serve both, and the foreign keys' cascades of a deleted ticket or tag.
CREATE INDEX IF NOT EXISTS "task_links_ticket_idx" ON "task_links" USING btree ("ticket_id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "service_contract_tags_tag_idx" ON "service_contract_tags" USING btree ("tag_id");
