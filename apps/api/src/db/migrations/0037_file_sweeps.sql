-- Whose turn it is to sweep the file store (platform/file-sweeper.ts). Every process runs a sweeper;
-- with several sharing one database and one store, each pass is claimed here first, so a pass and the
-- daily reconciliation happen once per interval across all of them instead of once per process.
CREATE TABLE "file_sweeps" (
  "id" smallint PRIMARY KEY CHECK ("id" = 1),
  "last_at" timestamp with time zone NOT NULL,
  "last_full_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
INSERT INTO "file_sweeps" VALUES (1, '-infinity', '-infinity');
