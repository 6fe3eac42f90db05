-- Following a ticket from the customer side (issue 16): read marks, ratings, followers, and the portal
-- setting that makes the overview the landing screen.
--
-- When a portal user last read a ticket (per user, not per contact: one person reading is the same
-- person whichever contact they hold). Unread = the newest public message is someone else's and newer.
CREATE TABLE "contact_ticket_reads" (
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"read_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("user_id", "ticket_id")
);
--> statement-breakpoint
CREATE INDEX "contact_ticket_reads_ticket_idx" ON "contact_ticket_reads" ("ticket_id");
--> statement-breakpoint
-- The customer's rating of a closed ticket: one per ticket (whoever of the company rates it last holds
-- it), changeable; each change is a `ticket.rated` event.
CREATE TABLE "ticket_ratings" (
	"ticket_id" integer PRIMARY KEY REFERENCES "tickets"("id") ON DELETE CASCADE,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"rating" smallint NOT NULL CHECK ("rating" BETWEEN 1 AND 5),
	"comment" text DEFAULT '' NOT NULL,
	"contact_id" integer REFERENCES "contacts"("id") ON DELETE SET NULL,
	"user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Colleagues (users holding a contact of the ticket's company) who follow a ticket: they may open it
-- and get its e-mails as its creator does.
CREATE TABLE "ticket_followers" (
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"added_by_user_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("ticket_id", "user_id")
);
--> statement-breakpoint
CREATE INDEX "ticket_followers_user_idx" ON "ticket_followers" ("user_id");
--> statement-breakpoint
-- A contact's ticket list holds the tickets they follow: a follower added or removed moves the company's
-- list counter (migration 0001), as any change a list shows does.
CREATE FUNCTION ticket_followers_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT t.company_id) INTO ids FROM tickets t WHERE t.id IN (SELECT ticket_id FROM new_rows);
  ELSE
    SELECT array_agg(DISTINCT t.company_id) INTO ids FROM tickets t WHERE t.id IN (SELECT ticket_id FROM old_rows);
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM bump_company_list_versions(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_followers_list_ins AFTER INSERT ON ticket_followers REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_followers_changed();
--> statement-breakpoint
CREATE TRIGGER ticket_followers_list_del AFTER DELETE ON ticket_followers REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_followers_changed();
--> statement-breakpoint
-- The overview's upcoming appointments are those booked with the user's e-mail.
CREATE INDEX "appointments_email_idx" ON "appointments" ("portal_id", lower("email"), "starts_at");
--> statement-breakpoint
-- Signature requests waiting for a contact.
CREATE INDEX "signature_requests_contact_idx" ON "signature_requests" ("contact_id") WHERE "signed_at" IS NULL;
--> statement-breakpoint
-- true: sign-in lands on the overview instead of the first section the contact may see (SPEC A2).
ALTER TABLE "portals" ADD COLUMN "overview_landing" boolean DEFAULT false NOT NULL;
