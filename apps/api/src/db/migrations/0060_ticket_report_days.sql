-- Issue 28 item 14: the desk's reports over a year read a daily rollup instead of every ticket of the
-- range. One row per portal, portal-local day (the portal's time zone), dimension and key: dimension 0
-- is every ticket of the portal (key 0), 1 the assigned group, 2 the agent, 3 the company, 4 the type
-- (key: the row id, 0 for none), 5 the priority (key 0 … 3). A ticket counts once in each dimension:
-- a report with at most one of the filters and the breakdown reads one dimension's rows; two of them
-- at once stay on the tickets themselves (docs/architecture.md, "The desk's reports").
-- Per row: tickets created that day; solved that day (closed, at `coalesce(closed_at,
-- last_activity_at)`, as 0056), with the resolution's due time and whether it was met; first answered
-- that day, likewise; ratings last given that day, per score. The minutes from creation are kept as
-- they are (the very float8 the reports' percentiles order), a sorted multiset per row, so that a
-- median or 90th percentile over any days is exactly the one over the tickets.
CREATE TABLE "ticket_report_days" (
  "portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
  "dim" smallint NOT NULL,
  "key" integer NOT NULL,
  "day" date NOT NULL,
  "created" integer DEFAULT 0 NOT NULL,
  "solved" integer DEFAULT 0 NOT NULL,
  "resolution_with_target" integer DEFAULT 0 NOT NULL,
  "resolution_met" integer DEFAULT 0 NOT NULL,
  "resolution_minutes" double precision[] DEFAULT '{}' NOT NULL,
  "responded" integer DEFAULT 0 NOT NULL,
  "response_with_target" integer DEFAULT 0 NOT NULL,
  "response_met" integer DEFAULT 0 NOT NULL,
  "response_minutes" double precision[] DEFAULT '{}' NOT NULL,
  "rated_1" integer DEFAULT 0 NOT NULL,
  "rated_2" integer DEFAULT 0 NOT NULL,
  "rated_3" integer DEFAULT 0 NOT NULL,
  "rated_4" integer DEFAULT 0 NOT NULL,
  "rated_5" integer DEFAULT 0 NOT NULL,
  CONSTRAINT "ticket_report_days_pk" PRIMARY KEY ("portal_id", "dim", "key", "day")
);
--> statement-breakpoint
-- What a ticket (or its rating) adds to the rollup: one event per fact, with the ticket's keys.
CREATE TYPE "ticket_report_event" AS (
  "sign" integer, "portal_id" integer, "ev" smallint, "day" date, "minutes" double precision,
  "target" boolean, "met" boolean, "grp" integer, "agent" integer, "company" integer, "type" integer,
  "priority" smallint
);
--> statement-breakpoint
-- The events of one ticket (its columns, as transition tables hand them over) in a zone: 0 created,
-- 1 solved, 2 first answered (with the minutes as the reports compute them), 3 … 7 its rating (3 +
-- score − 1) on the day it was last given.
CREATE FUNCTION ticket_report_events(id integer, portal_id integer, created_on timestamptz, closed boolean,
  closed_at timestamptz, last_activity_at timestamptz, resolution_due_at timestamptz,
  first_responded_at timestamptz, first_response_due_at timestamptz, grp integer, agent integer,
  company integer, type integer, priority smallint, tz text, sgn integer) RETURNS SETOF ticket_report_event
LANGUAGE sql STABLE AS $$
  SELECT (sgn, portal_id, e.ev, e.day, e.minutes, e.target, e.met, grp, agent, company, type,
    priority)::ticket_report_event
  FROM (
    SELECT 0::smallint AS ev, (created_on AT TIME ZONE tz)::date AS day, NULL::float8 AS minutes,
      NULL::boolean AS target, NULL::boolean AS met
    UNION ALL
    SELECT 1, (s.at AT TIME ZONE tz)::date, (extract(epoch FROM s.at - created_on) / 60)::float8,
      resolution_due_at IS NOT NULL, coalesce(s.at <= resolution_due_at, false)
    FROM (SELECT coalesce(closed_at, last_activity_at) AS at) s WHERE closed
    UNION ALL
    SELECT 2, (first_responded_at AT TIME ZONE tz)::date,
      (extract(epoch FROM first_responded_at - created_on) / 60)::float8,
      first_response_due_at IS NOT NULL, coalesce(first_responded_at <= first_response_due_at, false)
    WHERE first_responded_at IS NOT NULL
    UNION ALL
    SELECT (2 + r.rating)::smallint, (r.updated_at AT TIME ZONE tz)::date, NULL, NULL, NULL
    FROM ticket_ratings r WHERE r.ticket_id = id
  ) e
$$;
--> statement-breakpoint
-- A sorted multiset less some of its elements (each once), plus others, kept sorted: the reports merge
-- the days' arrays instead of sorting them.
CREATE FUNCTION ticket_report_merge(a double precision[], minus double precision[], plus double precision[])
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  v double precision;
  i integer;
BEGIN
  FOREACH v IN ARRAY coalesce(minus, '{}') LOOP
    i := array_position(a, v);
    IF i IS NOT NULL THEN
      a := a[:i - 1] || a[i + 1:];
    END IF;
  END LOOP;
  FOREACH v IN ARRAY coalesce(plus, '{}') LOOP
    IF cardinality(a) = 0 THEN
      a := ARRAY[v];
    ELSE
      -- How many elements are at most v: its place.
      i := width_bucket(v, a);
      a := a[:i] || v || a[i + 1:];
    END IF;
  END LOOP;
  RETURN a;
END
$$;
--> statement-breakpoint
-- Adds signed events to the rollup: netted per row and value first (a ticket whose keys did not change
-- adds nothing), then one upsert per row in key order, so that two writers take the rows' locks in the
-- same order and wait for each other rather than deadlock.
CREATE FUNCTION ticket_report_apply(evs ticket_report_event[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF evs IS NULL OR cardinality(evs) = 0 THEN
    RETURN;
  END IF;
  FOR r IN
    WITH e AS (
      SELECT x.portal_id, k.dim, k.key, x.day, x.ev, x.minutes, x.target, x.met, sum(x.sign)::integer AS n
      FROM unnest(evs) x
      CROSS JOIN LATERAL (VALUES (0::smallint, 0), (1::smallint, coalesce(x.grp, 0)),
        (2::smallint, coalesce(x.agent, 0)), (3::smallint, coalesce(x.company, 0)),
        (4::smallint, coalesce(x.type, 0)), (5::smallint, x.priority::integer)) k(dim, key)
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
      HAVING sum(x.sign) <> 0
    )
    SELECT e.portal_id, e.dim, e.key, e.day,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 0), 0)::integer AS created,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 1), 0)::integer AS solved,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 1 AND e.target), 0)::integer AS res_target,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 1 AND e.met), 0)::integer AS res_met,
      coalesce(array_agg(e.minutes) FILTER (WHERE e.ev = 1 AND g.w > 0), '{}') AS res_plus,
      coalesce(array_agg(e.minutes) FILTER (WHERE e.ev = 1 AND g.w < 0), '{}') AS res_minus,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 2), 0)::integer AS responded,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 2 AND e.target), 0)::integer AS resp_target,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 2 AND e.met), 0)::integer AS resp_met,
      coalesce(array_agg(e.minutes) FILTER (WHERE e.ev = 2 AND g.w > 0), '{}') AS resp_plus,
      coalesce(array_agg(e.minutes) FILTER (WHERE e.ev = 2 AND g.w < 0), '{}') AS resp_minus,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 3), 0)::integer AS r1,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 4), 0)::integer AS r2,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 5), 0)::integer AS r3,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 6), 0)::integer AS r4,
      coalesce(sum(g.w) FILTER (WHERE e.ev = 7), 0)::integer AS r5
    -- A duration netted to ±n is n elements of its array, each of weight ±1.
    FROM e CROSS JOIN LATERAL (SELECT CASE WHEN e.ev IN (1, 2) THEN sign(e.n)::integer ELSE e.n END AS w
      FROM generate_series(1, CASE WHEN e.ev IN (1, 2) THEN abs(e.n) ELSE 1 END)) g
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3, 4
  LOOP
    INSERT INTO ticket_report_days AS d ("portal_id", "dim", "key", "day", "created", "solved",
      "resolution_with_target", "resolution_met", "resolution_minutes", "responded", "response_with_target",
      "response_met", "response_minutes", "rated_1", "rated_2", "rated_3", "rated_4", "rated_5")
    VALUES (r.portal_id, r.dim, r.key, r.day, r.created, r.solved, r.res_target, r.res_met,
      ticket_report_merge('{}', '{}', r.res_plus), r.responded, r.resp_target, r.resp_met,
      ticket_report_merge('{}', '{}', r.resp_plus), r.r1, r.r2, r.r3, r.r4, r.r5)
    ON CONFLICT ("portal_id", "dim", "key", "day") DO UPDATE SET
      "created" = d."created" + excluded."created",
      "solved" = d."solved" + excluded."solved",
      "resolution_with_target" = d."resolution_with_target" + excluded."resolution_with_target",
      "resolution_met" = d."resolution_met" + excluded."resolution_met",
      "resolution_minutes" = ticket_report_merge(d."resolution_minutes", r.res_minus, r.res_plus),
      "responded" = d."responded" + excluded."responded",
      "response_with_target" = d."response_with_target" + excluded."response_with_target",
      "response_met" = d."response_met" + excluded."response_met",
      "response_minutes" = ticket_report_merge(d."response_minutes", r.resp_minus, r.resp_plus),
      "rated_1" = d."rated_1" + excluded."rated_1",
      "rated_2" = d."rated_2" + excluded."rated_2",
      "rated_3" = d."rated_3" + excluded."rated_3",
      "rated_4" = d."rated_4" + excluded."rated_4",
      "rated_5" = d."rated_5" + excluded."rated_5";
  END LOOP;
END
$$;
--> statement-breakpoint
-- Ticket writers hold this portal's lock shared, a rebuild (a time zone change) exclusive: a rebuild
-- waits for the writes already under way and reads them; a write that comes after reads the new zone.
CREATE FUNCTION ticket_report_lock(portal integer, exclusive boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF exclusive THEN
    PERFORM pg_advisory_xact_lock(1952805748, portal);
  ELSE
    PERFORM pg_advisory_xact_lock_shared(1952805748, portal);
  END IF;
END
$$;
--> statement-breakpoint
-- The rollup of one portal (or of every portal: null) from its tickets, as the triggers keep it.
CREATE FUNCTION ticket_report_rebuild(portal integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF portal IS NOT NULL THEN
    PERFORM ticket_report_lock(portal, true);
  END IF;
  DELETE FROM ticket_report_days WHERE portal IS NULL OR portal_id = portal;
  INSERT INTO ticket_report_days ("portal_id", "dim", "key", "day", "created", "solved",
    "resolution_with_target", "resolution_met", "resolution_minutes", "responded", "response_with_target",
    "response_met", "response_minutes", "rated_1", "rated_2", "rated_3", "rated_4", "rated_5")
  SELECT x.portal_id, k.dim, k.key, x.day,
    count(*) FILTER (WHERE x.ev = 0),
    count(*) FILTER (WHERE x.ev = 1),
    count(*) FILTER (WHERE x.ev = 1 AND x.target),
    count(*) FILTER (WHERE x.ev = 1 AND x.met),
    coalesce(array_agg(x.minutes ORDER BY x.minutes) FILTER (WHERE x.ev = 1), '{}'),
    count(*) FILTER (WHERE x.ev = 2),
    count(*) FILTER (WHERE x.ev = 2 AND x.target),
    count(*) FILTER (WHERE x.ev = 2 AND x.met),
    coalesce(array_agg(x.minutes ORDER BY x.minutes) FILTER (WHERE x.ev = 2), '{}'),
    count(*) FILTER (WHERE x.ev = 3),
    count(*) FILTER (WHERE x.ev = 4),
    count(*) FILTER (WHERE x.ev = 5),
    count(*) FILTER (WHERE x.ev = 6),
    count(*) FILTER (WHERE x.ev = 7)
  FROM tickets t
  JOIN portals p ON p.id = t.portal_id
  CROSS JOIN LATERAL ticket_report_events(t.id, t.portal_id, t.created_on, t.closed, t.closed_at, t.last_activity_at, t.resolution_due_at,
      t.first_responded_at, t.first_response_due_at, t.assigned_group_id, t.assigned_user_id, t.company_id,
      t.type_id, t.priority, p.time_zone, 1) x
  CROSS JOIN LATERAL (VALUES (0::smallint, 0), (1::smallint, coalesce(x.grp, 0)),
    (2::smallint, coalesce(x.agent, 0)), (3::smallint, coalesce(x.company, 0)),
    (4::smallint, coalesce(x.type, 0)), (5::smallint, x.priority::integer)) k(dim, key)
  WHERE portal IS NULL OR t.portal_id = portal
  GROUP BY 1, 2, 3, 4;
END
$$;
--> statement-breakpoint
-- The columns a ticket's events are read from: an update that changes none of them adds nothing (a
-- comment's `last_activity_at` of an open ticket, a title, …).
CREATE FUNCTION ticket_report_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  evs ticket_report_event[];
  portal integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR portal IN SELECT DISTINCT n.portal_id FROM new_rows n ORDER BY 1 LOOP
      PERFORM ticket_report_lock(portal, false);
    END LOOP;
    SELECT array_agg(e) INTO evs FROM new_rows n JOIN portals p ON p.id = n.portal_id,
      LATERAL ticket_report_events(n.id, n.portal_id, n.created_on, n.closed, n.closed_at, n.last_activity_at, n.resolution_due_at,
      n.first_responded_at, n.first_response_due_at, n.assigned_group_id, n.assigned_user_id, n.company_id,
      n.type_id, n.priority, p.time_zone, 1) e;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR portal IN SELECT DISTINCT n.portal_id FROM new_rows n ORDER BY 1 LOOP
      PERFORM ticket_report_lock(portal, false);
    END LOOP;
    WITH c AS (
      SELECT o.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.created_on, o.closed, CASE WHEN o.closed THEN coalesce(o.closed_at, o.last_activity_at) END,
          o.resolution_due_at, o.first_responded_at, o.first_response_due_at, o.assigned_group_id,
          o.assigned_user_id, o.company_id, o.type_id, o.priority, o.portal_id)
        IS DISTINCT FROM (n.created_on, n.closed, CASE WHEN n.closed THEN coalesce(n.closed_at, n.last_activity_at) END,
          n.resolution_due_at, n.first_responded_at, n.first_response_due_at, n.assigned_group_id,
          n.assigned_user_id, n.company_id, n.type_id, n.priority, n.portal_id)
    )
    SELECT array_agg(x.e) INTO evs FROM (
      SELECT e FROM old_rows o JOIN c ON c.id = o.id JOIN portals p ON p.id = o.portal_id,
        LATERAL ticket_report_events(o.id, o.portal_id, o.created_on, o.closed, o.closed_at, o.last_activity_at, o.resolution_due_at,
      o.first_responded_at, o.first_response_due_at, o.assigned_group_id, o.assigned_user_id, o.company_id,
      o.type_id, o.priority, p.time_zone, -1) e
      UNION ALL
      SELECT e FROM new_rows n JOIN c ON c.id = n.id JOIN portals p ON p.id = n.portal_id,
        LATERAL ticket_report_events(n.id, n.portal_id, n.created_on, n.closed, n.closed_at, n.last_activity_at, n.resolution_due_at,
      n.first_responded_at, n.first_response_due_at, n.assigned_group_id, n.assigned_user_id, n.company_id,
      n.type_id, n.priority, p.time_zone, 1) e
    ) x;
  END IF;
  PERFORM ticket_report_apply(evs);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ticket_report_days_ins" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_report_tickets();
--> statement-breakpoint
CREATE TRIGGER "ticket_report_days_upd" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS old_rows
  NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_report_tickets();
--> statement-breakpoint
-- A deleted ticket takes its events away before its rating goes with it (the rating's own trigger then
-- finds no ticket and does nothing).
CREATE FUNCTION ticket_report_ticket_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_report_lock(OLD.portal_id, false);
  PERFORM ticket_report_apply((SELECT array_agg(e) FROM portals p,
    LATERAL ticket_report_events(OLD.id, OLD.portal_id, OLD.created_on, OLD.closed, OLD.closed_at, OLD.last_activity_at, OLD.resolution_due_at,
      OLD.first_responded_at, OLD.first_response_due_at, OLD.assigned_group_id, OLD.assigned_user_id, OLD.company_id,
      OLD.type_id, OLD.priority, p.time_zone, -1) e WHERE p.id = OLD.portal_id));
  RETURN OLD;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ticket_report_days_del" BEFORE DELETE ON "tickets"
  FOR EACH ROW EXECUTE FUNCTION ticket_report_ticket_deleted();
--> statement-breakpoint
-- A rating given, changed or taken back: its ticket's keys, the day it was last given, its score.
CREATE FUNCTION ticket_report_ratings() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  evs ticket_report_event[];
  portal integer;
BEGIN
  -- (A transition table exists only for the operations that have it: one statement per operation.)
  IF TG_OP = 'INSERT' THEN
    WITH r AS (SELECT 1 AS sign, n.ticket_id, n.rating, n.updated_at FROM new_rows n)
  SELECT array_agg((r.sign, t.portal_id, (2 + r.rating)::smallint, (r.updated_at AT TIME ZONE p.time_zone)::date,
      NULL, NULL, NULL, t.assigned_group_id, t.assigned_user_id, t.company_id, t.type_id,
      t.priority)::ticket_report_event)
    INTO evs
    FROM r JOIN tickets t ON t.id = r.ticket_id JOIN portals p ON p.id = t.portal_id;
  ELSIF TG_OP = 'DELETE' THEN
    WITH r AS (SELECT -1 AS sign, o.ticket_id, o.rating, o.updated_at FROM old_rows o)
  SELECT array_agg((r.sign, t.portal_id, (2 + r.rating)::smallint, (r.updated_at AT TIME ZONE p.time_zone)::date,
      NULL, NULL, NULL, t.assigned_group_id, t.assigned_user_id, t.company_id, t.type_id,
      t.priority)::ticket_report_event)
    INTO evs
    FROM r JOIN tickets t ON t.id = r.ticket_id JOIN portals p ON p.id = t.portal_id;
  ELSE
    WITH r AS (
      SELECT -1 AS sign, o.ticket_id, o.rating, o.updated_at FROM old_rows o
      UNION ALL
      SELECT 1, n.ticket_id, n.rating, n.updated_at FROM new_rows n
    )
  SELECT array_agg((r.sign, t.portal_id, (2 + r.rating)::smallint, (r.updated_at AT TIME ZONE p.time_zone)::date,
      NULL, NULL, NULL, t.assigned_group_id, t.assigned_user_id, t.company_id, t.type_id,
      t.priority)::ticket_report_event)
    INTO evs
    FROM r JOIN tickets t ON t.id = r.ticket_id JOIN portals p ON p.id = t.portal_id;
  END IF;
  FOR portal IN SELECT DISTINCT (x).portal_id FROM unnest(evs) x ORDER BY 1 LOOP
    PERFORM ticket_report_lock(portal, false);
  END LOOP;
  PERFORM ticket_report_apply(evs);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ticket_report_ratings_ins" AFTER INSERT ON "ticket_ratings" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_report_ratings();
--> statement-breakpoint
CREATE TRIGGER "ticket_report_ratings_upd" AFTER UPDATE ON "ticket_ratings" REFERENCING OLD TABLE AS old_rows
  NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ticket_report_ratings();
--> statement-breakpoint
CREATE TRIGGER "ticket_report_ratings_del" AFTER DELETE ON "ticket_ratings" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ticket_report_ratings();
--> statement-breakpoint
-- A portal's days are its time zone's: a new zone rebuilds its rollup in the same transaction.
CREATE FUNCTION ticket_report_zone_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_report_rebuild(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "ticket_report_days_zone" AFTER UPDATE OF "time_zone" ON "portals"
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone) EXECUTE FUNCTION ticket_report_zone_changed();
--> statement-breakpoint
SELECT ticket_report_rebuild(NULL);
