-- The customer search of a contact who is not an administrator (issue 16): their tickets are the ones
-- they created and the ones their user follows. The search walked every ticket of the company in order
-- of last activity (tickets_inbox_company_idx) and kept the contact's: a text few tickets have read the
-- whole company for the contact's share of it. This index walks the contact's own tickets in the same
-- order, open and closed apart; the followed ones are read from ticket_followers_user_idx.
CREATE INDEX IF NOT EXISTS "tickets_inbox_creator_idx" ON "tickets" USING btree ("creator_contact_id", "closed", "last_activity_at" DESC, "ext_id" DESC);
