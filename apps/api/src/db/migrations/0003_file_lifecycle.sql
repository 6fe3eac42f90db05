-- The sweeper asks "does any files row still reference these bytes?" under the blob's lock.
CREATE INDEX "files_sha_idx" ON "files" USING btree ("sha256");
--> statement-breakpoint
-- Uploads not attached yet: the per-contact quota (count and bytes) and their expiry.
CREATE INDEX "files_pending_idx" ON "files" USING btree ("uploaded_by_contact_id","created_at") WHERE "files"."attached_at" is null;
--> statement-breakpoint
CREATE INDEX "files_unattached_created_idx" ON "files" USING btree ("created_at") WHERE "files"."attached_at" is null and "files"."uploaded_by_contact_id" is not null;
