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
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- Notifications for the customer (issue 16 part 5). What each user wants e-mailed, beside the agent
-- replies of notify_agent_comments (0000); all on unless the user turns them off. The in-app bell
-- shows every notification whatever these say.
ALTER TABLE "users" ADD COLUMN "notify_status_changes" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_new_documents" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_new_invoices" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify_signature_requests" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- One row per user and thing that happened, through the contact that may see it (links and the bell
-- are per contact). key: the id answers carry (internal ids never leave the server).
CREATE TABLE "notifications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"key" uuid DEFAULT gen_random_uuid() NOT NULL UNIQUE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"contact_id" integer NOT NULL REFERENCES "contacts"("id") ON DELETE CASCADE,
	"kind" text NOT NULL CHECK ("kind" IN ('agentReply', 'statusChange', 'newDocument', 'newInvoice', 'signatureRequest')),
	-- The back office's id of the ticket, document or invoice; the document key of a signature request.
	"ref_ext_id" bigint,
	"ref_key" text,
	"title" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "notifications_contact_user_idx" ON "notifications" ("contact_id", "user_id", "id" DESC);
--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" ("contact_id", "user_id") WHERE "read_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" ("user_id");
--> statement-breakpoint
-- Writes the notifications of one event for the users of the given contacts, once per user (the
-- first of their contacts), and queues the e-mail of those whose switch is on, in the same
-- transaction as the change: the `notification` outbox channel renders it (language, branding) when
-- it sends. Triggers call it, so every writer (import, integration API, staff desk, portal) notifies.
-- Not notified: the user who made the change from the portal (`sportello.actor_user`, set by the
-- portal's own writes, see platform/notifications.ts), and users without the permission of the
-- kind's list (the caller filters contacts by the same flag as that list's route contract).
CREATE FUNCTION notify_contacts(p_kind text, p_contacts integer[], p_ref_ext bigint, p_ref_key text,
  p_title text, p_detail text, p_email boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  actor integer := nullif(current_setting('sportello.actor_user', true), '')::integer;
BEGIN
  WITH made AS (
    INSERT INTO notifications (user_id, contact_id, kind, ref_ext_id, ref_key, title, detail)
    SELECT DISTINCT ON (uc.user_id) uc.user_id, c.id, p_kind, p_ref_ext, p_ref_key, p_title, p_detail
    FROM contacts c JOIN user_contacts uc ON uc.contact_id = c.id
    WHERE c.id = ANY (p_contacts) AND uc.user_id IS DISTINCT FROM actor
    ORDER BY uc.user_id, c.ext_id
    RETURNING id, user_id
  )
  INSERT INTO outbox (channel, payload, created_at, next_attempt_at)
  SELECT 'notification', jsonb_build_object('notification', m.id), now(), now()
  FROM made m JOIN users u ON u.id = m.user_id
  WHERE p_email AND u.email IS NOT NULL AND CASE p_kind
    WHEN 'statusChange' THEN u.notify_status_changes
    WHEN 'newDocument' THEN u.notify_new_documents
    WHEN 'newInvoice' THEN u.notify_new_invoices
    WHEN 'signatureRequest' THEN u.notify_signature_requests
    ELSE false END;
END
$$;
--> statement-breakpoint
-- A ticket's step changed: its creator hears of it (tickets: manageTickets or administrator).
CREATE FUNCTION notify_ticket_step() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_contacts('statusChange', ARRAY(SELECT c.id FROM contacts c
      WHERE c.id = NEW.creator_contact_id AND (c.manage_tickets OR c.administrator)),
    NEW.ext_id, NULL, NEW.title, (SELECT s.name FROM status_steps s WHERE s.id = NEW.status_step_id), true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_notify_step AFTER UPDATE OF status_step_id ON tickets
  FOR EACH ROW WHEN (OLD.status_step_id IS DISTINCT FROM NEW.status_step_id AND NEW.creator_contact_id IS NOT NULL)
  EXECUTE FUNCTION notify_ticket_step();
--> statement-breakpoint
-- An agent's public reply: the bell only (its e-mail is sent by the writer, see comments.mail.ts, under
-- notify_agent_comments). Rows dated more than a week back are history being loaded, not news.
CREATE FUNCTION notify_agent_reply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_contacts('agentReply', ARRAY(SELECT c.id FROM tickets t JOIN contacts c ON c.id = t.creator_contact_id
      WHERE t.id = NEW.ticket_id AND (c.manage_tickets OR c.administrator)),
    (SELECT t.ext_id FROM tickets t WHERE t.id = NEW.ticket_id), NULL,
    (SELECT t.title FROM tickets t WHERE t.id = NEW.ticket_id), NULL, false);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ticket_comments_notify AFTER INSERT ON ticket_comments
  FOR EACH ROW WHEN (NOT NEW.internal AND (NEW.sender_agent_id IS NOT NULL OR NEW.sender_staff_id IS NOT NULL)
    AND NEW.creation_date > now() - interval '7 days')
  EXECUTE FUNCTION notify_agent_reply();
--> statement-breakpoint
-- A new document of a contact (documents: viewContactDocuments), unless the contact uploaded it.
CREATE FUNCTION notify_new_document() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM files f WHERE f.id = NEW.file_id AND f.uploaded_by_contact_id IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  PERFORM notify_contacts('newDocument', ARRAY(SELECT c.id FROM contacts c
      WHERE c.id = NEW.contact_id AND c.view_contact_documents),
    NEW.ext_id, NULL, NEW.document_name, NULL, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER documents_notify AFTER INSERT ON documents
  FOR EACH ROW WHEN (NEW.create_date > now() - interval '7 days')
  EXECUTE FUNCTION notify_new_document();
--> statement-breakpoint
-- A new invoice of a company: its contacts that see invoices (viewContactInvoices).
CREATE FUNCTION notify_new_invoice() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_contacts('newInvoice', ARRAY(SELECT c.id FROM contacts c
      WHERE c.company_id = NEW.company_id AND c.view_contact_invoices),
    NEW.ext_id, NULL, NEW.document_number, NULL, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_notify AFTER INSERT ON invoices
  FOR EACH ROW WHEN (NEW.invoice_date > now() - interval '7 days')
  EXECUTE FUNCTION notify_new_invoice();
--> statement-breakpoint
-- A document to sign, still open: the contact it is addressed to.
CREATE FUNCTION notify_signature_request() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notify_contacts('signatureRequest', ARRAY[NEW.contact_id], NULL, NEW.document_key,
    NEW.document_name, NULL, true);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER signature_requests_notify AFTER INSERT ON signature_requests
  FOR EACH ROW WHEN (NEW.signed_at IS NULL AND (NEW.expires_at IS NULL OR NEW.expires_at > now()))
  EXECUTE FUNCTION notify_signature_request();
