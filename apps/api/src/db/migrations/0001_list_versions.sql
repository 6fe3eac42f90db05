CREATE TABLE "company_list_versions" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Moves the counters of the given companies forward. Companies already gone (a cascaded delete) are
-- skipped; rows are taken in id order so concurrent writers lock them in the same order.
CREATE FUNCTION bump_company_list_versions(company_ids integer[]) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO company_list_versions AS v (company_id, version)
  SELECT c.id, 1 FROM companies c WHERE c.id = ANY (company_ids) ORDER BY c.id
  ON CONFLICT (company_id) DO UPDATE SET version = v.version + 1
$$;
--> statement-breakpoint
-- One statement trigger per table and operation (transition tables allow one event per trigger).
-- TG_ARGV[0] says what the rows carry: 'company' (company_id) or 'portal' (portal_id: every company of
-- the portal, for portal-wide rows such as ticket types and status steps). PL/pgSQL plans a statement
-- when it first runs it, so the branch naming a transition table this trigger lacks is never planned.
CREATE FUNCTION list_rows_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_ARGV[0] = 'company' THEN
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(DISTINCT company_id) INTO ids FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(DISTINCT company_id) INTO ids FROM old_rows;
    ELSE
      SELECT array_agg(DISTINCT company_id) INTO ids
        FROM (SELECT company_id FROM new_rows UNION SELECT company_id FROM old_rows) r;
    END IF;
  ELSE
    IF TG_OP = 'INSERT' THEN
      SELECT array_agg(c.id) INTO ids FROM companies c
        WHERE c.portal_id IN (SELECT portal_id FROM new_rows);
    ELSIF TG_OP = 'DELETE' THEN
      SELECT array_agg(c.id) INTO ids FROM companies c
        WHERE c.portal_id IN (SELECT portal_id FROM old_rows);
    ELSE
      SELECT array_agg(c.id) INTO ids FROM companies c
        WHERE c.portal_id IN (SELECT portal_id FROM new_rows UNION SELECT portal_id FROM old_rows);
    END IF;
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM bump_company_list_versions(ids);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('tickets', 'company', true), ('contacts', 'company', true), ('activity_reports', 'company', true),
    ('wiki_elements', 'company', true), ('wiki_folders', 'company', true),
    ('ticket_types', 'portal', true), ('status_steps', 'portal', true),
    -- a new file shows in no list until a report names it (activity_reports' trigger)
    ('files', 'portal', false)
  ) AS x(tbl, scope, on_insert) LOOP
    IF t.on_insert THEN
      EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION list_rows_changed(%L)', t.tbl || '_list_ins', t.tbl, t.scope);
    END IF;
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION list_rows_changed(%L)', t.tbl || '_list_upd', t.tbl, t.scope);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION list_rows_changed(%L)', t.tbl || '_list_del', t.tbl, t.scope);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The company name is in every list row (the creator's company).
CREATE FUNCTION company_renamed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM bump_company_list_versions(ARRAY[NEW.id]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER companies_list_rename AFTER UPDATE OF company_name ON companies
  FOR EACH ROW WHEN (OLD.company_name IS DISTINCT FROM NEW.company_name)
  EXECUTE FUNCTION company_renamed();
