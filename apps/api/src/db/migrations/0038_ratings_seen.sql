-- Issue 28 item 1: the customer's rating reaches the desk. The ticket carries its rating (kept by a
-- trigger on ticket_ratings, whoever writes the rating: the portal, the import), so the inbox's "Rated"
-- filter is one range of a partial index read in the inbox's order, as every view is (migration 0008);
-- each rating is a timeline entry (staff only: the customer sees their rating on its own); the portal
-- says from which rating down the assignee (or the group) is told.
ALTER TABLE "tickets" ADD COLUMN "rating" smallint;
--> statement-breakpoint
UPDATE "tickets" t SET "rating" = r."rating" FROM "ticket_ratings" r WHERE r."ticket_id" = t."id";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tickets_inbox_rated_idx" ON "tickets" ("portal_id", "closed", "last_activity_at" DESC, "ext_id" DESC)
  WHERE "rating" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "ticket_changes" DROP CONSTRAINT "ticket_changes_kind_check";
--> statement-breakpoint
ALTER TABLE "ticket_changes" ADD CONSTRAINT "ticket_changes_kind_check"
  CHECK ("kind" IN ('step', 'closed', 'reopened', 'assignee', 'group', 'type', 'next_activity', 'rated'));
--> statement-breakpoint
-- A rating entry: from = the rating before (its number and comment), to = the new one; the author is the
-- contact who rated (the system when the contact is gone or the import wrote it without one). Statement
-- triggers: a write of many ratings updates the tickets in one statement. An upsert fires the INSERT
-- trigger with the rows it inserted and the UPDATE trigger with those it updated.
CREATE FUNCTION ticket_ratings_seen() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE tickets t SET rating = NULL FROM old_rows o WHERE t.id = o.ticket_id AND t.rating IS NOT NULL;
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT n.portal_id, n.ticket_id, n.updated_at, 'rated', false, n.rating, n.comment,
      CASE WHEN c.id IS NULL THEN 'system' ELSE 'contact' END, c.id, coalesce(c.referent_name, '')
    FROM new_rows n LEFT JOIN contacts c ON c.id = n.contact_id;
  ELSE
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT n.portal_id, n.ticket_id, n.updated_at, 'rated', false, o.rating, o.comment, n.rating, n.comment,
      CASE WHEN c.id IS NULL THEN 'system' ELSE 'contact' END, c.id, coalesce(c.referent_name, '')
    FROM new_rows n JOIN old_rows o ON o.ticket_id = n.ticket_id LEFT JOIN contacts c ON c.id = n.contact_id
    WHERE n.rating <> o.rating OR n.comment <> o.comment;
  END IF;
  UPDATE tickets t SET rating = n.rating FROM new_rows n
    WHERE t.id = n.ticket_id AND t.rating IS DISTINCT FROM n.rating;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_ratings_seen_insert AFTER INSERT ON ticket_ratings REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_ratings_seen();
--> statement-breakpoint
CREATE TRIGGER ticket_ratings_seen_update AFTER UPDATE ON ticket_ratings
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_ratings_seen();
--> statement-breakpoint
CREATE TRIGGER ticket_ratings_seen_delete AFTER DELETE ON ticket_ratings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_ratings_seen();
--> statement-breakpoint
-- The ratings given before: one entry each, at the time of the last one.
INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, to_ext, to_name, actor_kind, actor_id, actor_name)
SELECT r.portal_id, r.ticket_id, r.updated_at, 'rated', false, r.rating, r.comment,
  CASE WHEN c.id IS NULL THEN 'system' ELSE 'contact' END, c.id, coalesce(c.referent_name, '')
FROM ticket_ratings r LEFT JOIN contacts c ON c.id = r.contact_id;
--> statement-breakpoint
-- A rating at or below this tells the ticket's assignee (else its group, else the portal's staff); 0: never.
ALTER TABLE "portals" ADD COLUMN "low_rating_threshold" smallint DEFAULT 2 NOT NULL
  CHECK ("low_rating_threshold" BETWEEN 0 AND 5);
--> statement-breakpoint
ALTER TABLE "staff_preferences" ADD COLUMN "email_low_rating" boolean DEFAULT true NOT NULL;
