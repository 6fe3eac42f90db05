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
