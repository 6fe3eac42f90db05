-- The desk's administration of people (issue 14 item 1). Lists by name, in keyset pages, for a
-- portal of a million contacts: (portal, lower(name), ext_id) orders and seeks; the trigram indexes
-- (pg_trgm, 0008) find a fragment of a name or an e-mail without reading every row.
CREATE INDEX "companies_admin_name_idx" ON "companies" ("portal_id", lower("company_name"), "ext_id");
--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("company_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "contacts_portal_name_idx" ON "contacts" ("portal_id", lower("referent_name"), "ext_id");
--> statement-breakpoint
CREATE INDEX "contacts_company_name_idx" ON "contacts" ("company_id", lower("referent_name"), "ext_id");
--> statement-breakpoint
CREATE INDEX "contacts_name_trgm_idx" ON "contacts" USING gin ("referent_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "contacts_email_trgm_idx" ON "contacts" USING gin ("email" gin_trgm_ops);
--> statement-breakpoint
-- "See as this contact": a staff admin's read-only customer session for one contact. Its own table,
-- so no customer query ever meets it by accident; the guards look here only for tokens of its shape.
-- Code and token are stored as SHA-256 only. The code is exchanged once for the token.
CREATE TABLE "view_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"code_hash" text UNIQUE,
	"code_expires_at" timestamp with time zone NOT NULL,
	"token_hash" text UNIQUE,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"contact_id" integer NOT NULL REFERENCES "contacts"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "view_sessions_expires_idx" ON "view_sessions" ("expires_at");
