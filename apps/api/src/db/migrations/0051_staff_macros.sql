-- Issue 28 item 6: canned replies (macros). A macro is personal (owner_staff_user_id: its agent's
-- alone) or shared with the portal's staff (owner null, written by the portal's admins). `texts` holds
-- one text per language ({"it-IT": "…", "en-EN": "…"}), `actions` the ticket changes applied with the
-- reply ({"stepId", "assigneeId", "groupId", "priority", "tags"}, the back office's ids), both checked
-- by the contracts' schemas before they are written.
CREATE TABLE "staff_macros" (
  "id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
  "portal_id" integer NOT NULL REFERENCES "portals"("id") ON DELETE CASCADE,
  "owner_staff_user_id" integer REFERENCES "staff_users"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "texts" jsonb NOT NULL,
  "actions" jsonb NOT NULL DEFAULT '{}',
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  "updated_at" timestamp with time zone NOT NULL DEFAULT now()
);
-- The picker's list: the portal's shared macros and the caller's own, by name.
CREATE INDEX "staff_macros_portal_owner_idx" ON "staff_macros" ("portal_id", "owner_staff_user_id", lower("name"), "id");
