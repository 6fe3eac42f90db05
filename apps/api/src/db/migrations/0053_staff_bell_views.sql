-- Issue 28 items 2 and 5: the desk's bell and the inbox's saved views.
--
-- The bell: one row per agent told of something on a ticket, written by one function of the tickets
-- core (staff-bell.ts) in the transaction of the change. The ticket's portal is kept on the row so an
-- agent's list is one range of one index per portal (a member of two portals sees each portal's own).
-- 'sla_breach' is reserved for the service levels (item 13), which will write it through the same
-- writer.
CREATE TABLE "staff_notifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"key" uuid DEFAULT gen_random_uuid() NOT NULL UNIQUE,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"kind" text NOT NULL CHECK ("kind" IN ('assigned', 'customer_reply', 'mention', 'low_rating', 'sla_breach')),
	-- Who did it, as the desk shows them (an agent's or a contact's name); empty when nobody (a rule).
	"actor_name" text DEFAULT '' NOT NULL,
	-- The customer's rating of a low_rating notice.
	"rating" smallint,
	-- The comment of a customer_reply or mention notice.
	"comment_id" integer REFERENCES "ticket_comments"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "staff_notifications_list_idx" ON "staff_notifications" ("staff_user_id", "portal_id", "id" DESC);
--> statement-breakpoint
CREATE INDEX "staff_notifications_unread_idx" ON "staff_notifications" ("staff_user_id", "portal_id") WHERE "read_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "staff_notifications_ticket_idx" ON "staff_notifications" ("ticket_id");
--> statement-breakpoint
-- The e-mails of the two new kinds, each on unless turned off (the bell shows everything).
ALTER TABLE "staff_preferences" ADD COLUMN "email_assigned" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "staff_preferences" ADD COLUMN "email_mention" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Saved views: an agent's filters and order of the inbox under a name; `shared` (set by a portal
-- admin) shows it to every member of the portal. `query` is the inbox's query (view, filters, sort),
-- checked by the route's schema before it is stored. A view goes with its owner's account.
CREATE TABLE "staff_saved_views" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"owner_staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_saved_views_owner_idx" ON "staff_saved_views" ("portal_id", "owner_staff_user_id");
--> statement-breakpoint
CREATE INDEX "staff_saved_views_shared_idx" ON "staff_saved_views" ("portal_id") WHERE "shared";
