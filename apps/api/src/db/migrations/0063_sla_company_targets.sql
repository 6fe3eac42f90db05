-- Issue 28 item 13: service levels per company. A company's own targets in business minutes for some
-- priorities (`{"urgent":{"firstResponse":30}}`); a priority or a target it leaves out is the portal
-- policy's (0055). One row per company, none for a company that has no targets of its own.
CREATE TABLE "sla_company_targets" (
	"company_id" integer PRIMARY KEY NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"targets" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sla_company_targets_portal_idx" ON "sla_company_targets" ("portal_id");
--> statement-breakpoint
-- A change of a company's targets (set or removed) recomputes the clocks of its open tickets in the
-- background, as a policy change does its portal's (0057): the breach sweep marks them for a quiet look
-- in batches, in `ext_id` order after this cursor, and drops the row after the last batch. A row of
-- its own rather than a column of `sla_company_targets`: a removed override still has its tickets to
-- recompute.
CREATE TABLE "sla_company_recomputes" (
	"company_id" integer PRIMARY KEY NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"recompute_after" bigint NOT NULL
);
