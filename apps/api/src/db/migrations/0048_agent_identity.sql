-- Issue 28 item 9: the agent's own identity. The display name and avatar (profile_file_id, migration
-- 0008) already exist; the signature is plain text the desk appends to each public reply of the agent.
ALTER TABLE "staff_users" ADD COLUMN "signature" text NOT NULL DEFAULT '';
