-- Issue 28 item 12: a ticket an agent opens for a customer who phoned names the agent ("opened by Sara for
-- Giulia"). The contact stays the ticket's creator (their ticket, their rights); this is who typed it.
ALTER TABLE "tickets" ADD COLUMN "opened_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL;
