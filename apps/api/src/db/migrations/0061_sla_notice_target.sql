-- Issue 28: an SLA notice (`sla_breach`, `sla_soon`) names the target it is about (first response or
-- resolution) and that target's due time, in the bell as in its e-mail. Both null on the other kinds,
-- and on SLA notices written before this migration (the bell then names neither).
ALTER TABLE "staff_notifications" ADD COLUMN "sla_target" text
  CHECK ("sla_target" IN ('first_response', 'resolution'));
--> statement-breakpoint
ALTER TABLE "staff_notifications" ADD COLUMN "sla_due_at" timestamp with time zone;
