-- One conversation writer (issue 29 item 13): every comment has exactly one sender, a contact (with the
-- portal user who typed it) or an agent (with the staff user who wrote it on the desk), and says where it
-- came in. The import's format already demands one sender; the portal, the desk and the integration API
-- always set one; a contact deleted through the changes one by one left its comments without one.

-- A desk comment whose agent column is empty takes the staff user's agent of the portal.
UPDATE "ticket_comments" c SET "sender_agent_id" = m."agent_id"
  FROM "tickets" t, "staff_memberships" m
  WHERE c."sender_agent_id" IS NULL AND c."sender_contact_id" IS NULL AND c."sender_staff_id" IS NOT NULL
    AND t."id" = c."ticket_id" AND m."portal_id" = t."portal_id" AND m."staff_user_id" = c."sender_staff_id"
    AND m."agent_id" IS NOT NULL;

-- Whatever else breaks the rule cannot be repaired without guessing who wrote it: the migration stops
-- and names the rows (set sender_contact_id or sender_agent_id of each, then start again).
DO $$
DECLARE
  bad bigint;
  sample text;
BEGIN
  SELECT count(*), string_agg(id::text, ', ' ORDER BY id) FILTER (WHERE rn <= 20) INTO bad, sample
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM "ticket_comments"
    WHERE NOT ((sender_contact_id IS NOT NULL AND sender_agent_id IS NULL AND sender_staff_id IS NULL)
      OR (sender_agent_id IS NOT NULL AND sender_contact_id IS NULL AND sender_user_id IS NULL))) x;
  IF bad > 0 THEN
    RAISE EXCEPTION 'migration 0035: % ticket comments have no sender or two (ticket_comments.id %): set sender_contact_id or sender_agent_id of each (docs/operations.md)', bad, sample;
  END IF;
END $$;

ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_one_sender" CHECK (
  ("sender_contact_id" IS NOT NULL AND "sender_agent_id" IS NULL AND "sender_staff_id" IS NULL)
  OR ("sender_agent_id" IS NOT NULL AND "sender_contact_id" IS NULL AND "sender_user_id" IS NULL));

-- A sender's deletion no longer empties the column (it would break the rule): it is refused instead, at
-- the end of the statement, so a cascade that also deletes the comments (a whole ticket) still passes.
ALTER TABLE "ticket_comments" DROP CONSTRAINT "ticket_comments_sender_contact_id_contacts_id_fk";
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_sender_contact_id_contacts_id_fk"
  FOREIGN KEY ("sender_contact_id") REFERENCES "contacts"("id");
ALTER TABLE "ticket_comments" DROP CONSTRAINT "ticket_comments_sender_agent_id_agents_id_fk";
ALTER TABLE "ticket_comments" ADD CONSTRAINT "ticket_comments_sender_agent_id_agents_id_fk"
  FOREIGN KEY ("sender_agent_id") REFERENCES "agents"("id");

-- Where the comment came in (writeComment sets it; the import's comments have none).
ALTER TABLE "ticket_comments" ADD COLUMN "channel" text
  CONSTRAINT "ticket_comments_channel" CHECK ("channel" IN ('portal', 'desk', 'api', 'email'));
-- The e-mail a comment received by e-mail came in, kept as a file.
ALTER TABLE "ticket_comments" ADD COLUMN "original_email_file_id" integer
  CONSTRAINT "ticket_comments_original_email_file_id_files_id_fk" REFERENCES "files"("id");
