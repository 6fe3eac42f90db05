-- Staff desk, part 2 (issue 13): what agents do on a ticket. The timeline of ticket changes, presence,
-- staff uploads, the agents of staff users, and the signal that wakes the desk's unread counts.
--
-- Every staff member is one of the portal's agents (tickets name agents as assignee; the customer sees
-- an agent as the author of a reply). Members the import does not know get an agent row numbered after
-- the back office's agents, like tickets and comments the portal creates (portals.agent_seq).
ALTER TABLE "portals" ADD COLUMN "agent_seq" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
WITH m AS (
  SELECT sm.staff_user_id, sm.portal_id, su.display_name, su.email,
    (SELECT coalesce(max(a.ext_id), 0) FROM agents a WHERE a.portal_id = sm.portal_id)
      + row_number() OVER (PARTITION BY sm.portal_id ORDER BY sm.staff_user_id) AS ext
  FROM staff_memberships sm JOIN staff_users su ON su.id = sm.staff_user_id
  WHERE sm.agent_id IS NULL
), ins AS (
  INSERT INTO agents (portal_id, ext_id, display_name, email)
  SELECT portal_id, ext, display_name, email FROM m
  RETURNING id, portal_id, ext_id
)
UPDATE staff_memberships sm SET agent_id = ins.id
FROM m JOIN ins ON ins.portal_id = m.portal_id AND ins.ext_id = m.ext
WHERE sm.staff_user_id = m.staff_user_id AND sm.portal_id = m.portal_id;
--> statement-breakpoint
-- Files a staff user uploaded for a reply or note: attachable once, by that staff user only; swept
-- after 24 hours when never attached, like the contacts' uploads.
ALTER TABLE "files" ADD COLUMN "uploaded_by_staff_id" integer REFERENCES "staff_users"("id") ON DELETE CASCADE;
--> statement-breakpoint
CREATE INDEX "files_staff_pending_idx" ON "files" ("uploaded_by_staff_id", "created_at") WHERE "attached_at" IS NULL;
--> statement-breakpoint
CREATE INDEX "files_staff_unattached_created_idx" ON "files" ("created_at")
  WHERE "attached_at" IS NULL AND "uploaded_by_staff_id" IS NOT NULL;
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- The timeline: one row per change of a ticket's step, assignee, group, type or next planned activity,
-- written by a trigger in the transaction of the change, whoever writes it (staff desk, portal, import).
-- Values are kept as they were then (the back office's id and the name), so a renamed or deleted step
-- or agent does not rewrite history. Step changes (and so closing and reopening) are public: the
-- customer sees them. Who made the change comes from the transaction-local setting sportello.actor
-- (JSON {kind, id, name, at}, see platform/ticket-changes.ts); without one it is the system (import).
CREATE TABLE "ticket_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('step', 'closed', 'reopened', 'assignee', 'group', 'type', 'next_activity')),
	"public" boolean NOT NULL,
	"from_ext" bigint,
	"from_name" text,
	"to_ext" bigint,
	"to_name" text,
	"actor_kind" text NOT NULL CHECK ("actor_kind" IN ('staff', 'contact', 'api_key', 'system')),
	"actor_id" integer,
	"actor_name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ticket_changes_ticket_idx" ON "ticket_changes" ("ticket_id", "id");
--> statement-breakpoint
CREATE FUNCTION ticket_changes_record() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  actor jsonb := coalesce(nullif(current_setting('sportello.actor', true), '')::jsonb, '{}'::jsonb);
  a_kind text := coalesce(actor->>'kind', 'system');
  a_id integer := (actor->>'id')::integer;
  a_name text := coalesce(actor->>'name', '');
  a_at timestamptz := coalesce((actor->>'at')::timestamptz, now());
  was_closed boolean;
  is_closed boolean;
BEGIN
  IF NEW.status_step_id IS DISTINCT FROM OLD.status_step_id THEN
    SELECT coalesce(s.task_status = 2, false) INTO was_closed FROM status_steps s WHERE s.id = OLD.status_step_id;
    SELECT coalesce(s.task_status = 2, false) INTO is_closed FROM status_steps s WHERE s.id = NEW.status_step_id;
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT NEW.portal_id, NEW.id, a_at,
      CASE WHEN coalesce(is_closed, false) AND NOT coalesce(was_closed, false) THEN 'closed'
        WHEN coalesce(was_closed, false) AND NOT coalesce(is_closed, false) THEN 'reopened'
        ELSE 'step' END,
      true, o.ext_id, o.name, n.ext_id, n.name, a_kind, a_id, a_name
    FROM (SELECT 1) x
    LEFT JOIN status_steps o ON o.id = OLD.status_step_id
    LEFT JOIN status_steps n ON n.id = NEW.status_step_id;
  END IF;
  IF NEW.assigned_user_id IS DISTINCT FROM OLD.assigned_user_id THEN
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT NEW.portal_id, NEW.id, a_at, 'assignee', false, o.ext_id, o.display_name, n.ext_id, n.display_name,
      a_kind, a_id, a_name
    FROM (SELECT 1) x
    LEFT JOIN agents o ON o.id = OLD.assigned_user_id
    LEFT JOIN agents n ON n.id = NEW.assigned_user_id;
  END IF;
  IF NEW.assigned_group_id IS DISTINCT FROM OLD.assigned_group_id THEN
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT NEW.portal_id, NEW.id, a_at, 'group', false, o.ext_id, o.name, n.ext_id, n.name, a_kind, a_id, a_name
    FROM (SELECT 1) x
    LEFT JOIN assignee_groups o ON o.id = OLD.assigned_group_id
    LEFT JOIN assignee_groups n ON n.id = NEW.assigned_group_id;
  END IF;
  IF NEW.type_id IS DISTINCT FROM OLD.type_id THEN
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    SELECT NEW.portal_id, NEW.id, a_at, 'type', false, o.ext_id, o.name, n.ext_id, n.name, a_kind, a_id, a_name
    FROM (SELECT 1) x
    LEFT JOIN ticket_types o ON o.id = OLD.type_id
    LEFT JOIN ticket_types n ON n.id = NEW.type_id;
  END IF;
  IF coalesce(NEW.next_planned_activity_info, '') IS DISTINCT FROM coalesce(OLD.next_planned_activity_info, '') THEN
    INSERT INTO ticket_changes (portal_id, ticket_id, at, kind, public, from_ext, from_name, to_ext, to_name,
      actor_kind, actor_id, actor_name)
    VALUES (NEW.portal_id, NEW.id, a_at, 'next_activity', false,
      NULL, nullif(OLD.next_planned_activity_info, ''), NULL, nullif(NEW.next_planned_activity_info, ''),
      a_kind, a_id, a_name);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_changes AFTER UPDATE OF status_step_id, assigned_user_id, assigned_group_id, type_id,
  next_planned_activity_info ON tickets FOR EACH ROW EXECUTE FUNCTION ticket_changes_record();
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- Presence: "another agent has this ticket open / is replying". A heartbeat upserts the caller's row
-- with an expiry; readers ignore expired rows. Rows live in the database, so every API process sees
-- every agent.
CREATE TABLE "staff_presence" (
	"ticket_id" integer NOT NULL REFERENCES "tickets"("id") ON DELETE CASCADE,
	"staff_user_id" integer NOT NULL REFERENCES "staff_users"("id") ON DELETE CASCADE,
	"state" text NOT NULL CHECK ("state" IN ('viewing', 'replying')),
	"expires_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("ticket_id", "staff_user_id")
);
--> statement-breakpoint
CREATE INDEX "staff_presence_user_idx" ON "staff_presence" ("staff_user_id");
--> statement-breakpoint
-- ---------------------------------------------------------------------------------------------------
-- The desk's unread counts long-poll: any change of tickets (new ticket, comment, step, assignment) or
-- of a staff user's read marks NOTIFYs sportello_desk at commit; waiting requests then recount.
CREATE FUNCTION desk_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sportello_desk', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER tickets_desk_notify AFTER INSERT OR UPDATE ON tickets
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
--> statement-breakpoint
CREATE TRIGGER staff_ticket_reads_desk_notify AFTER INSERT OR UPDATE OR DELETE ON staff_ticket_reads
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
