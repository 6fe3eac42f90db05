-- The staff desk's bookings list (h5-catalog): a portal's bookings, or one appointment link's, by start.
CREATE INDEX IF NOT EXISTS appointments_portal_start_idx ON appointments (portal_id, starts_at);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS appointments_link_start_idx ON appointments (link_id, starts_at);
