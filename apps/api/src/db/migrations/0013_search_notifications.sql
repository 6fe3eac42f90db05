-- One search (issue 16 part 4): fragments of numbers and names are found with trigram indexes
-- (pg_trgm, created by 0008; PGlite loads it too), so a search of a large company reads an index
-- instead of every row. Ticket words and conversation use the full-text indexes of 0008.
CREATE INDEX "tickets_number_trgm_idx" ON "tickets" USING gin ("ticket_number" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "wiki_elements_name_trgm_idx" ON "wiki_elements" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "invoices_number_trgm_idx" ON "invoices" USING gin ("document_number" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "estimates_number_trgm_idx" ON "estimates" USING gin ("estimate_number" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "estimates_name_trgm_idx" ON "estimates" USING gin ("estimate_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "documents_name_trgm_idx" ON "documents" USING gin ("document_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "activity_contracts_name_trgm_idx" ON "activity_contracts" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "service_contracts_name_trgm_idx" ON "service_contracts" USING gin ("name" gin_trgm_ops);
