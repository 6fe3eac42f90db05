-- Issue 28 item 4: a ticket's priority (0 low, 1 normal, 2 high, 3 urgent), its due date, and the
-- tickets' own tags (not the contracts' catalogue, `tags`, which the back office sends): a portal's
-- ticket tags by name, made by the agents as they tag.
ALTER TABLE "tickets" ADD COLUMN "priority" smallint NOT NULL DEFAULT 1;
--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_priority_ck" CHECK ("priority" BETWEEN 0 AND 3);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "due_at" timestamp with time zone;
--> statement-breakpoint
CREATE TABLE "ticket_tags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_tags_name_uq" ON "ticket_tags" ("portal_id", lower("name"));
--> statement-breakpoint
CREATE TABLE "ticket_tag_links" (
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"tag_id" integer NOT NULL REFERENCES "ticket_tags"("id") ON DELETE CASCADE,
	PRIMARY KEY ("ticket_id", "tag_id")
);
--> statement-breakpoint
-- The tag filter reads a tag's tickets; the tag's delete checks its links.
CREATE INDEX "ticket_tag_links_tag_idx" ON "ticket_tag_links" ("tag_id", "ticket_id");
--> statement-breakpoint
-- A change of a ticket's tags shows on the desk at once, as a change of the ticket does (0009).
CREATE TRIGGER ticket_tag_links_desk_notify AFTER INSERT OR DELETE ON ticket_tag_links
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
--> statement-breakpoint
-- The inbox's other orders, each a range of one index read in order and stopped after a page, as the
-- order of last activity (tickets_inbox_idx): creation, priority (then last activity), due date
-- (soonest first, tickets without one last: 'infinity').
CREATE INDEX "tickets_inbox_created_idx" ON "tickets" ("portal_id", "closed", "created_on" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_inbox_priority_idx" ON "tickets" ("portal_id", "closed", "priority" DESC, "last_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_inbox_due_idx" ON "tickets" ("portal_id", "closed", (coalesce("due_at", 'infinity'::timestamptz)), "ext_id");
