-- Issue 28 item 13: the breach sweep and the inbox's SLA order. The bell's "about to breach" notice
-- is a kind of its own (`sla_soon`), beside `sla_breach` reserved in 0053.
ALTER TABLE "staff_notifications" DROP CONSTRAINT "staff_notifications_kind_check";
--> statement-breakpoint
ALTER TABLE "staff_notifications" ADD CONSTRAINT "staff_notifications_kind_check"
  CHECK ("kind" IN ('assigned', 'customer_reply', 'mention', 'low_rating', 'sla_breach', 'sla_soon'));
--> statement-breakpoint
-- The e-mail of both SLA notices (breached, about to breach), on unless turned off.
ALTER TABLE "staff_preferences" ADD COLUMN "email_sla" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- The inbox ordered by the pending target's due time, soonest first, tickets without a running clock
-- last: one range of this index per view, as the other orders (0049).
CREATE INDEX "tickets_inbox_sla_due_idx" ON "tickets" ("portal_id", "closed",
  (coalesce("sla_next_due_at", 'infinity'::timestamptz)), "ext_id");
--> statement-breakpoint
-- A policy change recomputes the clocks of the portal's open tickets in the background: the breach
-- sweep marks them for a look in batches, in `ext_id` order after this cursor (null: nothing pending).
ALTER TABLE "sla_policies" ADD COLUMN "recompute_after" bigint;
