-- Findings of issue 29's penetration test (part B).
--
-- Item 9: a TOTP enrolment is opened by the password (or a code) and lasts minutes, like a passkey's
-- registration challenge: the secret shown at setup confirms only within CHALLENGE_TTL_MS of it.
ALTER TABLE "users" ADD COLUMN "totp_pending_at" timestamp with time zone;
--> statement-breakpoint
-- Whatever was pending before this had no proof behind it: it starts again.
UPDATE "users" SET "totp_pending_secret" = NULL WHERE "totp_pending_secret" IS NOT NULL;
--> statement-breakpoint
-- Item 8: who made each API key and webhook endpoint: a staff user of the portal (the desk), another key
-- (an endpoint made through the integration API) or the installation key (neither set). The name is
-- the one shown then, so the record reads the same after the person or key is gone. Removing a member
-- lists and may revoke what they made (modules/staff/access.service.ts).
ALTER TABLE "api_keys" ADD COLUMN "created_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_api_key_id" integer REFERENCES "api_keys"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "created_by_name" text;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "created_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "created_by_api_key_id" integer REFERENCES "api_keys"("id") ON DELETE SET NULL;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "created_by_name" text;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "api_keys_creator_idx" ON "api_keys" USING btree ("portal_id", "created_by_staff_id") WHERE "created_by_staff_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "webhook_endpoints_creator_idx" ON "webhook_endpoints" USING btree ("portal_id", "created_by_staff_id") WHERE "created_by_staff_id" IS NOT NULL;
--> statement-breakpoint
-- Item 11: a portal sees its own members only through what they did in it. last_seen_at is when the
-- member last used this portal's desk (moved by the staff guard, at most every few minutes): the access
-- list's "last sign-in" and "active" read it, not the person's sign-ins anywhere.
ALTER TABLE "staff_memberships" ADD COLUMN "last_seen_at" timestamp with time zone;
--> statement-breakpoint
-- Someone with one portal signed in to that one; a person of several portals is seen again in each when
-- they next open it.
UPDATE "staff_memberships" m SET "last_seen_at" = s.at
  FROM (SELECT "staff_user_id", max("created_at") AS at FROM "staff_sessions" GROUP BY "staff_user_id") s
  WHERE s."staff_user_id" = m."staff_user_id"
    AND (SELECT count(*) FROM "staff_memberships" o WHERE o."staff_user_id" = m."staff_user_id") = 1;
--> statement-breakpoint
-- A staff user removed from their last portal was disabled for good, and no other portal could invite the
-- address again (409 staff_disabled, which also told that portal of the other's removal). Such a person
-- has no account now: no password, invited again by whichever portal asks.
UPDATE "staff_users" u SET "status" = 'invited', "password_hash" = NULL
  WHERE u."status" = 'disabled'
    AND NOT EXISTS (SELECT 1 FROM "staff_memberships" m WHERE m."staff_user_id" = u."id");
--> statement-breakpoint
-- Item 12: a contact's uploads of the last 24 hours, attached or not, are counted for their daily bound
-- (platform/uploads.ts) in one index range.
DROP INDEX IF EXISTS "files_uploader_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "files_uploader_idx" ON "files" USING btree ("uploaded_by_contact_id", "created_at");
