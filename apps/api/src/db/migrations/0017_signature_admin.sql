-- Signature requests followed from the staff desk and the integration API (issue 14 item 3): when a
-- request was made, first opened by the signer and cancelled, and who made it. Rows of earlier
-- imports keep created_at null (unknown), not the migration's time.
ALTER TABLE "signature_requests" ADD COLUMN "created_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "signature_requests" ADD COLUMN "opened_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "signature_requests" ADD COLUMN "cancelled_at" timestamp with time zone;
--> statement-breakpoint
-- The admin list: a portal's requests newest first, in keyset pages.
CREATE INDEX "signature_requests_portal_idx" ON "signature_requests" ("portal_id", "id" DESC);
