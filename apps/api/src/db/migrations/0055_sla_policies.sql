-- Issue 28 item 13: service levels. A portal's policy (one per portal): opening hours per weekday
-- (`[[["09:00","13:00"],…], …]`, Sunday first), holidays (`["2026-12-25", …]`) in the portal's time
-- zone, and targets in business minutes per priority (`{"urgent":{"firstResponse":60,"resolution":480},…}`).
CREATE TABLE "sla_policies" (
	"portal_id" integer PRIMARY KEY NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"enabled" boolean DEFAULT true NOT NULL,
	"hours" jsonb NOT NULL,
	"holidays" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"targets" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A ticket's clock, written by the tickets core (core/sla-clock.ts) whenever what it depends on changes:
-- the due times of both targets, when staff first answered in public, the business minutes the clock
-- stood still while the ticket waited for the customer; the pending target's due time and the instant
-- it becomes "soon" (what the badge and the "Breaching soon" view read); the breach events already sent
-- (bit 1 first response, bit 2 resolution) and when the sweep must next look at the ticket.
ALTER TABLE "tickets" ADD COLUMN "first_response_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "first_responded_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "resolution_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_paused_minutes" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_next_due_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_soon_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_breached" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_sweep_at" timestamp with time zone;
--> statement-breakpoint
-- The "Breaching soon" view and its count: open tickets whose clock runs, most urgent first (one range
-- of this index, `sla_soon_at <= now()`, read in order).
CREATE INDEX "tickets_inbox_sla_idx" ON "tickets" ("portal_id", "sla_soon_at", "ext_id")
  WHERE "sla_soon_at" IS NOT NULL AND NOT "closed" AND NOT "waiting_on_customer";
--> statement-breakpoint
-- The breach sweep: tickets whose pending target passes and whose breach was not yet told.
CREATE INDEX "tickets_sla_sweep_idx" ON "tickets" ("sla_sweep_at") WHERE "sla_sweep_at" IS NOT NULL;
