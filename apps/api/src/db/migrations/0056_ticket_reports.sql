-- Issue 28 item 14: the desk's reports. When a ticket was solved: `closed_at`, set by the trigger that
-- keeps `closed` (0008, 0040) when a ticket moves from an open step to a closing one (at the change's
-- instant, the actor's `at` as the change log reads it), cleared when it is reopened. A ticket that
-- arrived closed (the import, the integration API) has no known instant: the reports read
-- `coalesce(closed_at, last_activity_at)` for it, its newest activity.
ALTER TABLE "tickets" ADD COLUMN "closed_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "tickets" t SET "closed_at" = c."at"
  FROM (SELECT "ticket_id", max("at") AS "at" FROM "ticket_changes" WHERE "kind" = 'closed' GROUP BY "ticket_id") c
  WHERE t."id" = c."ticket_id" AND t."closed";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tickets_inbox_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A new ticket has had no activity but its creation (comments come after, through their trigger).
  IF TG_OP = 'INSERT' OR NEW.last_activity_at < NEW.created_on THEN
    NEW.last_activity_at := NEW.created_on;
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.public_activity_at := NEW.created_on;
  ELSIF NEW.created_on IS DISTINCT FROM OLD.created_on THEN
    NEW.public_activity_at := greatest(NEW.created_on, (SELECT max(c.creation_date) FROM ticket_comments c
      WHERE c.ticket_id = NEW.id AND NOT c.internal));
  END IF;
  NEW.closed := coalesce((SELECT s.task_status = 2 FROM status_steps s WHERE s.id = NEW.status_step_id), false);
  IF NOT NEW.closed THEN
    NEW.closed_at := NULL;
  ELSIF TG_OP = 'UPDATE' AND NOT OLD.closed THEN
    NEW.closed_at := coalesce((nullif(current_setting('sportello.actor', true), '')::jsonb->>'at')::timestamptz, now());
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- The reports' walks, each one portal's range of one instant, carrying the filters' and breakdowns'
-- columns so that a report reads the index alone: tickets created, solved, first answered; open now.
CREATE INDEX "tickets_report_created_idx" ON "tickets" ("portal_id", "created_on", "closed", "priority",
  "assigned_group_id", "assigned_user_id", "type_id", "company_id");
--> statement-breakpoint
CREATE INDEX "tickets_report_solved_idx" ON "tickets" ("portal_id", (coalesce("closed_at", "last_activity_at")),
  "created_on", "resolution_due_at", "priority", "assigned_group_id", "assigned_user_id", "type_id", "company_id")
  WHERE "closed";
--> statement-breakpoint
CREATE INDEX "tickets_report_responded_idx" ON "tickets" ("portal_id", "first_responded_at", "created_on",
  "first_response_due_at", "priority", "assigned_group_id", "assigned_user_id", "type_id", "company_id")
  WHERE "first_responded_at" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "tickets_report_open_idx" ON "tickets" ("portal_id", "priority", "assigned_group_id",
  "assigned_user_id", "type_id", "company_id", "created_on") WHERE NOT "closed";
--> statement-breakpoint
CREATE INDEX "ticket_ratings_report_idx" ON "ticket_ratings" ("portal_id", "updated_at", "rating", "ticket_id");
