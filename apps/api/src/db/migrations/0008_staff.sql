-- Staff desk (issue 13): staff accounts, kept apart from the contacts' users. A staff user is one
-- person (one e-mail) who may belong to several portals, with a role in each. Staff sessions and links
-- live in their own tables, so a contact's token is never found by a staff lookup and the other way
-- round: the separation is structural, not a flag someone could forget to check.
CREATE TABLE "staff_users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"profile_file_id" integer REFERENCES "files"("id") ON DELETE SET NULL,
	"password_hash" text,
	"password_changed_at" timestamp with time zone,
	-- invited: no password yet; active: may sign in; disabled: may not, sessions refused.
	"status" text DEFAULT 'invited' NOT NULL CHECK ("status" IN ('invited', 'active', 'disabled')),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_users_email_uq" ON "staff_users" (lower("email"));
--> statement-breakpoint
-- Membership of a staff user in a portal. agent_id ties the person to the portal's agent row (the
-- back office's agent, or one the portal created), which is what tickets name as their assignee.
CREATE TABLE "staff_memberships" (
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"role" text DEFAULT 'agent' NOT NULL CHECK ("role" IN ('agent', 'admin')),
	"agent_id" integer REFERENCES "agents"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("staff_user_id", "portal_id")
);
--> statement-breakpoint
CREATE INDEX "staff_memberships_portal_idx" ON "staff_memberships" ("portal_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_memberships_agent_uq" ON "staff_memberships" ("agent_id");
--> statement-breakpoint
-- Which assignee groups an agent works in (the inbox's "My groups").
CREATE TABLE "staff_group_members" (
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"group_id" integer NOT NULL REFERENCES "assignee_groups"("id") ON DELETE CASCADE,
	PRIMARY KEY ("staff_user_id", "group_id")
);
--> statement-breakpoint
CREATE INDEX "staff_group_members_group_idx" ON "staff_group_members" ("group_id");
--> statement-breakpoint
-- Bearer sessions of staff users: only the SHA-256 of the token is stored.
CREATE TABLE "staff_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"token_hash" text NOT NULL UNIQUE,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions" ("staff_user_id");
--> statement-breakpoint
-- Single-use links (invitation, password recovery) of staff users, stored hashed. portal_id: the
-- portal whose branded page the link opens.
CREATE TABLE "staff_tokens" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"token_hash" text NOT NULL UNIQUE,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL CHECK ("purpose" IN ('invite', 'recovery')),
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_tokens_user_idx" ON "staff_tokens" ("staff_user_id");
--> statement-breakpoint
-- What each staff user wants to be e-mailed about (one row per user, made on first need).
CREATE TABLE "staff_preferences" (
	"staff_user_id" integer PRIMARY KEY REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"email_new_ticket" boolean DEFAULT true NOT NULL,
	"email_customer_reply" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- When a staff user last read a ticket: unread = the ticket's last activity is newer.
CREATE TABLE "staff_ticket_reads" (
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"read_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("staff_user_id", "ticket_id")
);
--> statement-breakpoint
CREATE INDEX "staff_ticket_reads_ticket_idx" ON "staff_ticket_reads" ("ticket_id");
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- The inbox. Internal notes are comments with internal = true: every customer-side query, e-mail,
-- task page and customer event leaves them out. sender_staff_id: the staff user who wrote a comment.
ALTER TABLE "ticket_comments" ADD COLUMN "internal" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "ticket_comments" ADD COLUMN "sender_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL;
--> statement-breakpoint
-- Denormalised for the inbox's indexes (a sort or filter through a join cannot use one index):
-- last_activity_at: the newest of creation and comments; closed: the step's taskStatus is 2;
-- waiting_on_customer: the last public message is from staff (the ball is in the customer's court).
-- Triggers below keep them true whoever writes (import, portal, staff desk).
ALTER TABLE "tickets" ADD COLUMN "last_activity_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "closed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "waiting_on_customer" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "tickets" t SET
  "last_activity_at" = greatest(t."created_on", (SELECT max(c."creation_date") FROM "ticket_comments" c WHERE c."ticket_id" = t."id")),
  "closed" = (SELECT s."task_status" = 2 FROM "status_steps" s WHERE s."id" = t."status_step_id"),
  "waiting_on_customer" = coalesce((SELECT c."sender_agent_id" IS NOT NULL FROM "ticket_comments" c
    WHERE c."ticket_id" = t."id" ORDER BY c."creation_date" DESC, c."id" DESC LIMIT 1), false);
--> statement-breakpoint
-- The default only satisfies writers that do not name the column; the trigger below decides.
ALTER TABLE "tickets" ALTER COLUMN "last_activity_at" SET DEFAULT now();
--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "last_activity_at" SET NOT NULL;
--> statement-breakpoint
CREATE FUNCTION tickets_inbox_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A new ticket has had no activity but its creation (comments come after, through their trigger).
  IF TG_OP = 'INSERT' OR NEW.last_activity_at < NEW.created_on THEN
    NEW.last_activity_at := NEW.created_on;
  END IF;
  NEW.closed := coalesce((SELECT s.task_status = 2 FROM status_steps s WHERE s.id = NEW.status_step_id), false);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_inbox_columns BEFORE INSERT OR UPDATE OF status_step_id, created_on, last_activity_at
  ON tickets FOR EACH ROW EXECUTE FUNCTION tickets_inbox_columns();
--> statement-breakpoint
CREATE FUNCTION status_step_closed_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets SET closed = (NEW.task_status = 2)
    WHERE status_step_id = NEW.id AND closed IS DISTINCT FROM (NEW.task_status = 2);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER status_steps_closed AFTER UPDATE OF task_status ON status_steps
  FOR EACH ROW WHEN (OLD.task_status IS DISTINCT FROM NEW.task_status)
  EXECUTE FUNCTION status_step_closed_changed();
--> statement-breakpoint
-- New comments move their ticket's last activity; the newest public one decides who is waiting.
-- A statement trigger: an import of many comments updates each ticket once.
CREATE FUNCTION comments_touch_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET
    last_activity_at = greatest(t.last_activity_at, n.at),
    waiting_on_customer = CASE WHEN n.public_at IS NOT NULL AND n.public_at >= t.last_activity_at
      THEN n.public_by_staff ELSE t.waiting_on_customer END
  FROM (
    SELECT r.ticket_id, max(r.creation_date) AS at,
      max(r.creation_date) FILTER (WHERE NOT r.internal) AS public_at,
      (array_agg(r.sender_agent_id IS NOT NULL OR r.sender_staff_id IS NOT NULL
        ORDER BY r.creation_date DESC, r.id DESC) FILTER (WHERE NOT r.internal))[1] AS public_by_staff
    FROM new_rows r GROUP BY r.ticket_id
  ) n
  WHERE t.id = n.ticket_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_comments_touch AFTER INSERT ON ticket_comments REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION comments_touch_tickets();
--> statement-breakpoint
-- Inbox indexes. Every view is "portal, [assignee | group], open or closed, newest activity first":
-- each is one index range read in order, stopping after a page (keyset on last_activity_at, id).
CREATE INDEX "tickets_inbox_idx" ON "tickets" ("portal_id", "closed", "last_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_inbox_assignee_idx" ON "tickets" ("portal_id", "assigned_user_id", "closed", "last_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_inbox_group_idx" ON "tickets" ("portal_id", "assigned_group_id", "closed", "last_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_inbox_waiting_idx" ON "tickets" ("portal_id", "last_activity_at" DESC, "ext_id" DESC)
  WHERE "waiting_on_customer" AND NOT "closed";
--> statement-breakpoint
CREATE INDEX "tickets_inbox_company_idx" ON "tickets" ("company_id", "closed", "last_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX "tickets_number_idx" ON "tickets" ("portal_id", lower("ticket_number"));
--> statement-breakpoint
-- Search: words (full text, 'simple' configuration: the portals mix Italian, English and Spanish and a
-- stemmer of one would mangle the others) and fragments of titles (trigrams).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "tickets_fts_idx" ON "tickets" USING gin (to_tsvector('simple', "title" || ' ' || "description"));
--> statement-breakpoint
CREATE INDEX "tickets_title_trgm_idx" ON "tickets" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "ticket_comments_fts_idx" ON "ticket_comments" USING gin (to_tsvector('simple', "message"));
