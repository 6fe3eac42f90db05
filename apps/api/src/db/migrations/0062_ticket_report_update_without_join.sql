-- The rollup's update trigger (0060) found the tickets whose report columns changed by joining the
-- statement's old and new rows on their id. Transition tables have no index: a large statement (the
-- 40,000 rows of inbox.plans.test.ts, a data fix over a portal) was a nested loop of one over the other,
-- which ran for half an hour on PGlite. The changed rows are now the two sides' differences (EXCEPT ALL,
-- hashed or sorted, never a nested loop) over the columns the events are read from, the solved moment
-- as the events take it.
CREATE OR REPLACE FUNCTION ticket_report_tickets() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  evs ticket_report_event[];
  portal integer;
BEGIN
  FOR portal IN SELECT DISTINCT n.portal_id FROM new_rows n ORDER BY 1 LOOP
    PERFORM ticket_report_lock(portal, false);
  END LOOP;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(e) INTO evs FROM new_rows n JOIN portals p ON p.id = n.portal_id,
      LATERAL ticket_report_events(n.id, n.portal_id, n.created_on, n.closed, n.closed_at, n.last_activity_at, n.resolution_due_at,
      n.first_responded_at, n.first_response_due_at, n.assigned_group_id, n.assigned_user_id, n.company_id,
      n.type_id, n.priority, p.time_zone, 1) e;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH o AS (
      SELECT o.id, o.portal_id, o.created_on, o.closed,
        CASE WHEN o.closed THEN coalesce(o.closed_at, o.last_activity_at) END AS solved_at,
        o.resolution_due_at, o.first_responded_at, o.first_response_due_at, o.assigned_group_id,
        o.assigned_user_id, o.company_id, o.type_id, o.priority
      FROM old_rows o
    ), n AS (
      SELECT n.id, n.portal_id, n.created_on, n.closed,
        CASE WHEN n.closed THEN coalesce(n.closed_at, n.last_activity_at) END AS solved_at,
        n.resolution_due_at, n.first_responded_at, n.first_response_due_at, n.assigned_group_id,
        n.assigned_user_id, n.company_id, n.type_id, n.priority
      FROM new_rows n
    ), c AS (
      SELECT -1 AS sgn, d.* FROM (SELECT * FROM o EXCEPT ALL SELECT * FROM n) d
      UNION ALL
      SELECT 1, d.* FROM (SELECT * FROM n EXCEPT ALL SELECT * FROM o) d
    )
    SELECT array_agg(e) INTO evs FROM c JOIN portals p ON p.id = c.portal_id,
      LATERAL ticket_report_events(c.id, c.portal_id, c.created_on, c.closed, c.solved_at, c.solved_at,
      c.resolution_due_at, c.first_responded_at, c.first_response_due_at, c.assigned_group_id,
      c.assigned_user_id, c.company_id, c.type_id, c.priority, p.time_zone, c.sgn) e;
  END IF;
  PERFORM ticket_report_apply(evs);
  RETURN NULL;
END
$$;
