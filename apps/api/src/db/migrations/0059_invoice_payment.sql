-- An invoice's payment as the back office tracks it (issue 28 item 10: the desk shows a company's
-- unpaid invoices). Both optional: a back office that sends neither does not track payments here, and
-- its invoices are neither paid nor unpaid.
ALTER TABLE "invoices" ADD COLUMN "due_date" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "paid_date" timestamp with time zone;
--> statement-breakpoint
-- The desk's panel: a company's unpaid invoices, the one due first first.
CREATE INDEX "invoices_unpaid_idx" ON "invoices" USING btree ("company_id", "due_date")
  WHERE "paid_date" IS NULL AND "due_date" IS NOT NULL;
