-- Issue 28 items 8 and 11. A merge of a duplicate ticket into another: the record of what moved
-- (comments, attachments, followers added, the source's step before its close), so an admin's undo
-- within a day moves back exactly that. One active merge per source: a merged ticket cannot be merged
-- again, nor be merged into, until the merge is undone.
CREATE TABLE "ticket_merges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"source_ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"target_ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"merged_at" timestamp with time zone NOT NULL,
	"merged_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL,
	"merged_by_name" text DEFAULT '' NOT NULL,
	"comment_ids" integer[] DEFAULT '{}' NOT NULL,
	"attachment_ids" integer[] DEFAULT '{}' NOT NULL,
	"follower_user_ids" integer[] DEFAULT '{}' NOT NULL,
	"source_step_id" integer REFERENCES "status_steps"("id") ON DELETE SET NULL,
	"undone_at" timestamp with time zone,
	"undone_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL,
	CONSTRAINT "ticket_merges_not_itself" CHECK ("source_ticket_id" <> "target_ticket_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_merges_source_uq" ON "ticket_merges" ("source_ticket_id") WHERE "undone_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "ticket_merges_target_idx" ON "ticket_merges" ("target_ticket_id");
--> statement-breakpoint
-- Time an agent spent on a ticket, with or without a comment; billable or not. Sportello only records
-- it and tells the back office (`ticket.time_logged`): the hour bank's balance is the back office's.
CREATE TABLE "ticket_time_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"comment_id" integer REFERENCES "ticket_comments"("id") ON DELETE SET NULL,
	"staff_user_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL,
	"staff_name" text DEFAULT '' NOT NULL,
	"minutes" integer NOT NULL,
	"billable" boolean NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"logged_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ticket_time_entries_minutes_ck" CHECK ("minutes" BETWEEN 1 AND 1440)
);
--> statement-breakpoint
CREATE INDEX "ticket_time_entries_ticket_idx" ON "ticket_time_entries" ("ticket_id", "id");
--> statement-breakpoint
CREATE INDEX "ticket_time_entries_comment_idx" ON "ticket_time_entries" ("comment_id") WHERE "comment_id" IS NOT NULL;
--> statement-breakpoint
-- The merge's notes in the desk's timeline: `merged_into` on the source (to: the target), `merged_from`
-- on the target (from: the source), `merge_undone` on both.
ALTER TABLE "ticket_changes" DROP CONSTRAINT "ticket_changes_kind_check";
--> statement-breakpoint
ALTER TABLE "ticket_changes" ADD CONSTRAINT "ticket_changes_kind_check"
  CHECK ("kind" IN ('step', 'closed', 'reopened', 'assignee', 'group', 'type', 'next_activity', 'rated',
    'merged_into', 'merged_from', 'merge_undone'));
