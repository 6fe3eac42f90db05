-- The staff desk's bookings list (h5-catalog): a portal's bookings, or one appointment link's, by start.
CREATE INDEX IF NOT EXISTS appointments_portal_start_idx ON appointments (portal_id, starts_at);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS appointments_link_start_idx ON appointments (link_id, starts_at);
--> statement-breakpoint
-- The admin screens' company picker: name prefix, any case, by name. Byte order ("C"): one index serves
-- both the prefix (LIKE 'abc%') and the order, whatever the database's collation.
CREATE INDEX IF NOT EXISTS companies_portal_name_idx ON companies (portal_id, (lower(company_name) COLLATE "C"));
