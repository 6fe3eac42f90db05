-- Audit log (issues 12 and 14): every change made one entity at a time, through the integration API
-- (a portal API key) or the staff desk's admin API (a staff user), written in the transaction of the
-- change. `before` and `after` are the entity as the API shows it (back-office ids), secrets removed.
-- The actor's name is copied so the row still says who after the key or the staff user is deleted.
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_type" text NOT NULL CHECK ("actor_type" IN ('api_key', 'staff')),
	"api_key_id" integer REFERENCES "api_keys"("id") ON DELETE SET NULL,
	"staff_user_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL,
	"actor_name" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
-- The admin's list: newest first, keyset on id; each filter has an index that keeps that order.
CREATE INDEX "audit_log_portal_idx" ON "audit_log" ("portal_id", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" ("portal_id", "entity", "entity_id", "id");
--> statement-breakpoint
CREATE INDEX "audit_log_staff_idx" ON "audit_log" ("staff_user_id", "id") WHERE "staff_user_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "audit_log_key_idx" ON "audit_log" ("api_key_id", "id") WHERE "api_key_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "audit_log_occurred_idx" ON "audit_log" ("portal_id", "occurred_at");
