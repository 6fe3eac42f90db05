-- The customer's view of a ticket's last activity (issue 29 item 10): its creation or its newest public
-- message. tickets.last_activity_at (0008) counts internal notes too: it is the staff inbox's order, and
-- the customer search showed it as each hit's date and ordered by it, so a customer learned when an
-- internal note was written. The lists computed the public one per row; now it is a column, kept by
-- the comments' triggers in the transaction of every comment written, changed or deleted, whoever
-- writes it, and the customer search walks it through indexes of its own.
ALTER TABLE "tickets" ADD COLUMN "public_activity_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "tickets" t SET "public_activity_at" = greatest(t."created_on",
  (SELECT max(c."creation_date") FROM "ticket_comments" c WHERE c."ticket_id" = t."id" AND NOT c."internal"));
--> statement-breakpoint
-- The default only satisfies writers that do not name the column; the triggers below decide.
ALTER TABLE "tickets" ALTER COLUMN "public_activity_at" SET DEFAULT now();
--> statement-breakpoint
ALTER TABLE "tickets" ALTER COLUMN "public_activity_at" SET NOT NULL;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tickets_inbox_columns() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A new ticket has had no activity but its creation (comments come after, through their trigger).
  IF TG_OP = 'INSERT' OR NEW.last_activity_at < NEW.created_on THEN
    NEW.last_activity_at := NEW.created_on;
  END IF;
  IF TG_OP = 'INSERT' THEN
    NEW.public_activity_at := NEW.created_on;
  ELSIF NEW.created_on IS DISTINCT FROM OLD.created_on THEN
    NEW.public_activity_at := greatest(NEW.created_on, (SELECT max(c.creation_date) FROM ticket_comments c
      WHERE c.ticket_id = NEW.id AND NOT c.internal));
  END IF;
  NEW.closed := coalesce((SELECT s.task_status = 2 FROM status_steps s WHERE s.id = NEW.status_step_id), false);
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- New comments: the public ones move the public activity, in the same update of the ticket.
CREATE OR REPLACE FUNCTION comments_touch_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET
    last_activity_at = greatest(t.last_activity_at, n.at),
    public_activity_at = CASE WHEN n.public_at IS NULL THEN t.public_activity_at
      ELSE greatest(t.public_activity_at, n.public_at) END,
    waiting_on_customer = CASE WHEN n.public_at IS NOT NULL AND n.public_at >= t.last_activity_at
      THEN n.public_by_staff ELSE t.waiting_on_customer END,
    conversation_vector = CASE WHEN n.words IS NULL THEN t.conversation_vector
      ELSE conversation_words_add(t.conversation_vector, n.words) END
  FROM (
    SELECT r.ticket_id, max(r.creation_date) AS at,
      max(r.creation_date) FILTER (WHERE NOT r.internal) AS public_at,
      (array_agg(r.sender_agent_id IS NOT NULL OR r.sender_staff_id IS NOT NULL
        ORDER BY r.creation_date DESC, r.id DESC) FILTER (WHERE NOT r.internal))[1] AS public_by_staff,
      conversation_words_agg(r.search_vector ORDER BY r.id) FILTER (WHERE NOT r.internal) AS words
    FROM new_rows r GROUP BY r.ticket_id
  ) n
  WHERE t.id = n.ticket_id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A comment deleted, changed (text, public or internal, date) or moved to another ticket: its tickets' words
-- (0030) and public activity are read again from the comments that remain, in ONE update of each ticket
-- (a ticket whose values stay is not written). Two triggers each updating the ticket made the second
-- update re-check every foreign key of the row (PostgreSQL does for a row this transaction already
-- wrote), locking its portal, company, contact, agent, group, step and type rows on every comment
-- removed by an import.
CREATE OR REPLACE FUNCTION comments_rewrite_conversation() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  touched integer[];
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT o.ticket_id) INTO touched FROM old_rows o;
  ELSE
    SELECT array_agg(DISTINCT x.id) INTO touched FROM (
      SELECT o.ticket_id AS id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE o.message IS DISTINCT FROM n.message OR o.internal IS DISTINCT FROM n.internal
          OR o.creation_date IS DISTINCT FROM n.creation_date OR o.ticket_id IS DISTINCT FROM n.ticket_id
      UNION ALL SELECT n.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id
        WHERE o.ticket_id IS DISTINCT FROM n.ticket_id) x;
  END IF;
  IF touched IS NULL THEN
    RETURN NULL;
  END IF;
  UPDATE tickets t SET conversation_vector = w.words, public_activity_at = w.at
  FROM (SELECT tk.id,
      coalesce((SELECT conversation_words_agg(c.search_vector ORDER BY c.id)
        FROM ticket_comments c WHERE c.ticket_id = tk.id AND NOT c.internal), '') AS words,
      greatest(tk.created_on, (SELECT max(c.creation_date) FROM ticket_comments c
        WHERE c.ticket_id = tk.id AND NOT c.internal)) AS at
    FROM tickets tk WHERE tk.id = ANY (touched)) w
  WHERE t.id = w.id
    AND (t.conversation_vector IS DISTINCT FROM w.words OR t.public_activity_at IS DISTINCT FROM w.at);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The customer search's walks (search.queries.ts): the company's tickets and a contact's own, open and
-- closed apart, newest public activity first. The contact's walk of 0033 ordered by last_activity_at and
-- served the search only: it is replaced.
DROP INDEX IF EXISTS "tickets_inbox_creator_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_public_creator_idx" ON "tickets" USING btree ("creator_contact_id", "closed", "public_activity_at" DESC, "ext_id" DESC);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_public_company_idx" ON "tickets" USING btree ("company_id", "closed", "public_activity_at" DESC, "ext_id" DESC);
