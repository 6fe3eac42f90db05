-- Integration API (issue 12): portal API keys, the event log (feed + webhooks read it), webhook
-- endpoints with their deliveries and attempt log, idempotency records, and two user preferences.
CREATE TABLE "api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"previous_secret_hash" text,
	"previous_valid_until" timestamp with time zone,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"rotated_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_uq" ON "api_keys" ("secret_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_previous_secret_uq" ON "api_keys" ("previous_secret_hash")
	WHERE "previous_secret_hash" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "api_keys_portal_idx" ON "api_keys" ("portal_id", "id");
--> statement-breakpoint
-- Events are ordered by (xid, id): ids are handed out before commit, so they commit out of order; the
-- feed serves only events of transactions older than every running one (xid < snapshot xmin), and no
-- transaction can later commit an event below that point.
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"xid" xid8 DEFAULT pg_current_xact_id() NOT NULL,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"source" jsonb NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE INDEX "events_feed_idx" ON "events" ("portal_id", "xid", "id");
--> statement-breakpoint
CREATE INDEX "events_occurred_idx" ON "events" ("occurred_at");
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"secret" text NOT NULL,
	"notify_email" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_endpoints_portal_idx" ON "webhook_endpoints" ("portal_id", "id");
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
	"event_id" bigint NOT NULL REFERENCES "events"("id") ON DELETE CASCADE,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone,
	"given_up_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" ("next_attempt_at")
	WHERE "delivered_at" IS NULL AND "given_up_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "id");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" ("event_id");
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"delivery_id" bigint NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
	"endpoint_id" integer NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
	"attempted_at" timestamp with time zone NOT NULL,
	"status" integer,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "webhook_attempts_endpoint_idx" ON "webhook_attempts" ("endpoint_id", "id");
--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" ("delivery_id");
--> statement-breakpoint
-- One row per (key, Idempotency-Key), written in the transaction of the change it answers.
CREATE TABLE "idempotency_keys" (
	"api_key_id" integer NOT NULL REFERENCES "api_keys"("id") ON DELETE CASCADE,
	"idem_key" text NOT NULL,
	"route" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("api_key_id", "idem_key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" ("created_at");
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "uploaded_by_api_key_id" integer REFERENCES "api_keys"("id") ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX "files_api_key_uploader_idx" ON "files" ("uploaded_by_api_key_id")
	WHERE "uploaded_by_api_key_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_agent_comments" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Wakes long-polling feed readers and webhook workers at commit (identical notifications of one
-- transaction are folded into one by PostgreSQL).
CREATE FUNCTION events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sportello_events', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION events_notify();
