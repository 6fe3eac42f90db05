-- The sweeper asks "does any files row still reference these bytes?" under the blob's lock.
CREATE INDEX "files_sha_idx" ON "files" USING btree ("sha256");
--> statement-breakpoint
-- Uploads not attached yet: the per-contact quota (count and bytes) and their expiry.
CREATE INDEX "files_pending_idx" ON "files" USING btree ("uploaded_by_contact_id","created_at") WHERE "files"."attached_at" is null;
--> statement-breakpoint
CREATE INDEX "files_unattached_created_idx" ON "files" USING btree ("created_at") WHERE "files"."attached_at" is null and "files"."uploaded_by_contact_id" is not null;
--> statement-breakpoint
-- Sent messages keep whom and what they were about, not their bodies (recovery and invitation links,
-- SMS codes): the outbox worker now does this on sending; this clears the rows sent before.
UPDATE "outbox" SET "payload" = jsonb_strip_nulls(jsonb_build_object('to', "payload"->'to', 'subject', "payload"->'subject', 'redacted', true)) WHERE "sent_at" IS NOT NULL;
