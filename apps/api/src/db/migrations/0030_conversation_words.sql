-- The words of each ticket's public conversation, on the ticket (issue 16: customer search p99 <= 100 ms).
-- The customer search reads the tickets of the caller's scope newest first and compares each with the
-- words searched: title and description by the stored vector of 0019, and the public conversation by
-- looking up the ticket's comments, one index probe per ticket. A word few tickets have reads every
-- ticket of the scope, so those probes were half of its cost. Each ticket now carries the words of its
-- public comments (internal notes never), kept by triggers in the transaction of every comment written,
-- changed or deleted, whoever writes it (import, portal, staff desk, integration API).
--
-- The words are strip()ped (no positions: the searches look for words, not phrases) and bounded: a
-- conversation past 256 KB of words keeps the words it had (a tsvector holds at most 1 MB, and a
-- comment must never fail because its ticket's conversation is long).
CREATE FUNCTION conversation_words_add(words tsvector, more tsvector) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN more IS NULL THEN words
    WHEN pg_column_size(words) + pg_column_size(more) > 262144 THEN words
    ELSE words || strip(more)
  END
$$;
--> statement-breakpoint
CREATE AGGREGATE conversation_words_agg(tsvector) (
  SFUNC = conversation_words_add,
  STYPE = tsvector,
  INITCOND = ''
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "conversation_vector" tsvector NOT NULL DEFAULT '';
--> statement-breakpoint
-- On a populated database: one pass over the public comments and an update of each ticket that has one.
UPDATE tickets t SET conversation_vector = w.words
FROM (
  SELECT ticket_id, conversation_words_agg(search_vector ORDER BY id) AS words
  FROM ticket_comments WHERE NOT internal GROUP BY ticket_id
) w
WHERE w.ticket_id = t.id;
--> statement-breakpoint
-- New comments: the statement trigger of 0008 that moves each ticket's last activity adds the new
-- public comments' words in the same update of the ticket.
CREATE OR REPLACE FUNCTION comments_touch_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE tickets t SET
    last_activity_at = greatest(t.last_activity_at, n.at),
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
-- A comment changed (its text, public or internal) or deleted: its ticket's words are read again from
-- the comments that remain.
CREATE FUNCTION comments_rewrite_conversation() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- A ticket whose words come out the same is not written (nor its company's list counter moved).
  IF TG_OP = 'DELETE' THEN
    UPDATE tickets t SET conversation_vector = w.words
    FROM (SELECT o.ticket_id, coalesce((SELECT conversation_words_agg(c.search_vector ORDER BY c.id)
        FROM ticket_comments c WHERE c.ticket_id = o.ticket_id AND NOT c.internal), '') AS words
      FROM (SELECT DISTINCT ticket_id FROM old_rows) o) w
    WHERE t.id = w.ticket_id AND t.conversation_vector IS DISTINCT FROM w.words;
  ELSE
    UPDATE tickets t SET conversation_vector = w.words
    FROM (SELECT x.ticket_id, coalesce((SELECT conversation_words_agg(c.search_vector ORDER BY c.id)
        FROM ticket_comments c WHERE c.ticket_id = x.ticket_id AND NOT c.internal), '') AS words
      FROM (
        SELECT o.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE o.message IS DISTINCT FROM n.message OR o.internal IS DISTINCT FROM n.internal
            OR o.ticket_id IS DISTINCT FROM n.ticket_id
        UNION SELECT n.ticket_id FROM old_rows o JOIN new_rows n ON n.id = o.id
          WHERE o.ticket_id IS DISTINCT FROM n.ticket_id) x) w
    WHERE t.id = w.ticket_id AND t.conversation_vector IS DISTINCT FROM w.words;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_comments_conversation_update AFTER UPDATE ON ticket_comments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION comments_rewrite_conversation();
--> statement-breakpoint
CREATE TRIGGER ticket_comments_conversation_delete AFTER DELETE ON ticket_comments
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION comments_rewrite_conversation();
