-- E-mail as a channel (issue 26, docs/email.md): each portal's support mailbox, the messages read
-- from it (or received by the SMTP ingress), and the addresses that bounced.
--
-- One mailbox per portal. The IMAP password is sealed like the webhook secrets (`sealed.v1.…`,
-- AES-256-GCM under a key derived from SECRET, the portal's id bound as associated data). `lease_owner`
-- and `lease_until` make exactly one process read a mailbox: a process takes the lease when it is free
-- or expired and renews it while it reads. `uid_validity`/`last_uid` are where reading stands.
CREATE TABLE IF NOT EXISTS "portal_mailboxes" (
  "portal_id" integer PRIMARY KEY NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
  "address" text NOT NULL,
  "imap_host" text NOT NULL DEFAULT '',
  "imap_port" integer NOT NULL DEFAULT 993 CHECK ("imap_port" BETWEEN 1 AND 65535),
  "imap_security" text NOT NULL DEFAULT 'tls' CHECK ("imap_security" IN ('tls', 'starttls', 'none')),
  "imap_user" text NOT NULL DEFAULT '',
  "imap_password" text CHECK ("imap_password" IS NULL OR "imap_password" LIKE 'sealed.v1.%'),
  "folder" text NOT NULL DEFAULT 'INBOX',
  "enabled" boolean NOT NULL DEFAULT true,
  "uid_validity" bigint,
  "last_uid" bigint NOT NULL DEFAULT 0,
  "lease_owner" text,
  "lease_until" timestamp with time zone,
  "last_read_at" timestamp with time zone,
  "last_error" text,
  "created_at" timestamp with time zone NOT NULL,
  "updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- An address is one portal's: a message to it is that portal's whichever way it arrives.
CREATE UNIQUE INDEX IF NOT EXISTS "portal_mailboxes_address_uq" ON "portal_mailboxes" (lower("address"));
--> statement-breakpoint
-- Every message read, once: `message_key` is its Message-ID, or `sha256:<digest of the bytes>` when it
-- has none, unique per portal, so a message read again (the reader died between fetching and
-- recording) is recognised and skipped. `status` is what became of it:
--   done         a comment or a ticket (`ticket_id`, `comment_id`)
--   unknown      from an address no contact or agent of the portal has: waits in "Unknown senders"
--   waiting      from a contact who may not do what the mail asks: waits for an agent
--   unprocessed  could not be read or applied (`reason`); kept, never retried by itself
--   bounce       a delivery status notification: the address it names is marked bouncing
--   ignored      an automatic message or one of our own (`reason`), nothing done
--   discarded    an agent discarded it from a list above
-- The raw bytes are a file of the portal (`raw_file_id`), for the "show full e-mail" view.
CREATE TABLE IF NOT EXISTS "inbound_emails" (
  "id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY NOT NULL,
  "portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
  "message_key" text NOT NULL,
  "via" text NOT NULL CHECK ("via" IN ('imap', 'smtp')),
  "status" text NOT NULL CHECK ("status" IN ('done', 'unknown', 'waiting', 'unprocessed', 'bounce', 'ignored', 'discarded')),
  "reason" text,
  "from_address" text NOT NULL DEFAULT '',
  "from_name" text NOT NULL DEFAULT '',
  "subject" text NOT NULL DEFAULT '',
  "preview" text NOT NULL DEFAULT '',
  "size" integer NOT NULL DEFAULT 0,
  "auth_failed" boolean NOT NULL DEFAULT false,
  "raw_file_id" integer REFERENCES "files"("id") ON DELETE SET NULL,
  "ticket_id" integer REFERENCES "tickets"("id") ON DELETE SET NULL,
  "comment_id" integer REFERENCES "ticket_comments"("id") ON DELETE SET NULL,
  "received_at" timestamp with time zone NOT NULL,
  "handled_at" timestamp with time zone,
  "handled_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE SET NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "inbound_emails_key_uq" ON "inbound_emails" ("portal_id", "message_key");
--> statement-breakpoint
-- The desk's lists ("Unknown senders", "Unprocessed", …), newest first, keyset on id.
CREATE INDEX IF NOT EXISTS "inbound_emails_status_idx" ON "inbound_emails" ("portal_id", "status", "id" DESC);
--> statement-breakpoint
-- Addresses a delivery status notification said fail, per portal (lower case): shown on the contact.
CREATE TABLE IF NOT EXISTS "email_bounces" (
  "portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
  "address" text NOT NULL CHECK ("address" = lower("address")),
  "reason" text NOT NULL DEFAULT '',
  "bounced_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("portal_id", "address")
);
--> statement-breakpoint
-- A received message's sender is looked up among the portal's contacts by address.
CREATE INDEX IF NOT EXISTS "contacts_portal_email_idx" ON "contacts" ("portal_id", lower("email"));
