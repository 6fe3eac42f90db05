-- The webhook worker claims each endpoint's due deliveries apart (per-endpoint concurrency): one index
-- range per endpoint, in the order they are sent.
CREATE INDEX "webhook_deliveries_endpoint_due_idx" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at", "id")
	WHERE "delivered_at" IS NULL AND "given_up_at" IS NULL;
