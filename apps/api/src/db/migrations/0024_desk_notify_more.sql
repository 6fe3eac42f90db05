-- The desk's counts are kept until the desk's NOTIFY (modules/staff/desk-counts.ts): it must also fire
-- when what a view counts changes without an insert or update of tickets: a ticket deleted, a staff
-- user's groups ("My groups"), a membership's agent ("Mine").
CREATE TRIGGER tickets_desk_notify_delete AFTER DELETE ON tickets
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
--> statement-breakpoint
CREATE TRIGGER staff_group_members_desk_notify AFTER INSERT OR UPDATE OR DELETE ON staff_group_members
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
--> statement-breakpoint
CREATE TRIGGER staff_memberships_desk_notify AFTER INSERT OR UPDATE OR DELETE ON staff_memberships
  FOR EACH STATEMENT EXECUTE FUNCTION desk_notify();
