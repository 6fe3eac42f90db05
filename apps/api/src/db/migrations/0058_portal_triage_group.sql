-- Issue 28 item 2: who hears of a customer's ticket or reply that has neither an assignee nor a group
-- (or a group without members): the members of this group of the portal, or, while it is null (the
-- default, and after the group is deleted), the portal's staff admins. Chosen by an admin on the desk.
ALTER TABLE "portals" ADD COLUMN "triage_group_id" integer REFERENCES "assignee_groups"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- Issue 28 item 8: a merge moves the source's time entries with its conversation (the time was spent on
-- that conversation, and the hour banks are read against the surviving ticket); the ids it moved, so
-- an undo moves back exactly those.
ALTER TABLE "ticket_merges" ADD COLUMN "time_entry_ids" integer[] DEFAULT '{}' NOT NULL;
