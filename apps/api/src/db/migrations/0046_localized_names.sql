-- Issue 29, D20b: the back office names ticket types and status steps per language (it-IT, en-EN,
-- es-ES; docs/fixture-format.md). `name` stays the one name (the desk's, and a language's without its
-- own); `names` holds the per-language ones the customer screens show in the user's language.
ALTER TABLE "ticket_types" ADD COLUMN "names" jsonb;
--> statement-breakpoint
ALTER TABLE "status_steps" ADD COLUMN "names" jsonb;
