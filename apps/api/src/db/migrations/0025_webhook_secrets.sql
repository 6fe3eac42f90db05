-- Webhook signing secrets at rest, their rotation with an overlap, and the installation key in the
-- audit log (docs/integration.md).
--
-- A stored secret says what it is: `whsec_…` in clear (rows written before this migration; the
-- server seals them at start, with the SECRET no migration can read: modules/integration/
-- webhook-secrets.ts) or `sealed.v1.<key id>.<iv>.<tag>.<ciphertext>`, AES-256-GCM under a key derived
-- from SECRET.
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_secret_format"
  CHECK ("secret" LIKE 'whsec\_%' OR "secret" LIKE 'sealed.v1.%');
--> statement-breakpoint
-- Rotation: the secret before the last rotation still signs (beside the new one) until
-- `previous_valid_until`; a secret two rotations old is gone.
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret" text;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_valid_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "rotated_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_previous_secret_format"
  CHECK ("previous_secret" IS NULL OR "previous_secret" LIKE 'whsec\_%' OR "previous_secret" LIKE 'sealed.v1.%');
--> statement-breakpoint
-- Changes made with the installation key (PORTAL_ADMIN_KEY) are audited too: keys and webhooks.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_type_check";
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_type_check"
  CHECK ("actor_type" IN ('api_key', 'staff', 'admin_key'));
