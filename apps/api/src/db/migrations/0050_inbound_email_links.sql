-- The message a comment or a ticket came from (docs/email.md "Trust"): the desk's ticket screen reads
-- `inbound_emails` by the comment it became (the "Sender not verified" mark) and by the ticket it opened
-- (its "Show full e-mail" and mark), so each lookup is one index probe, not a scan of every message read.
-- Partial: most messages (ignored, bounces, unknown senders) point at neither.
CREATE INDEX IF NOT EXISTS "inbound_emails_comment_idx" ON "inbound_emails" ("comment_id") WHERE "comment_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inbound_emails_ticket_idx" ON "inbound_emails" ("ticket_id") WHERE "ticket_id" IS NOT NULL;
