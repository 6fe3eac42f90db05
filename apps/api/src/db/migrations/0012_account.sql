-- Profile, sessions and two-factor sign-in (issue 16, part 6).
-- Sessions say what they are to their owner (device, address, last seen) and carry a public id, so the
-- profile can end one without showing its internal key; "remember me" sessions live 30 days.
ALTER TABLE "sessions" ADD COLUMN "public_id" uuid DEFAULT gen_random_uuid() NOT NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "remember" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ip" text;
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_public_id_uq" ON "sessions" ("public_id");
--> statement-breakpoint
-- The name the user chose to be shown (the user name stays the sign-in name).
ALTER TABLE "users" ADD COLUMN "display_name" text;
--> statement-breakpoint
-- TOTP: the secret is stored encrypted (AES-256-GCM under a key derived from SECRET); the pending one
-- waits for its first code; the last accepted time step refuses a replayed code.
ALTER TABLE "users" ADD COLUMN "totp_secret" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_pending_secret" text;
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "totp_last_step" bigint;
--> statement-breakpoint
-- An e-mail change waits in its link (purpose 'email') until the new address confirms it.
ALTER TABLE "user_tokens" ADD COLUMN "new_email" text;
--> statement-breakpoint
CREATE TABLE "user_passkeys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"public_id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "user_passkeys_public_id_uq" ON "user_passkeys" ("public_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "user_passkeys_credential_uq" ON "user_passkeys" ("credential_id");
--> statement-breakpoint
CREATE INDEX "user_passkeys_user_idx" ON "user_passkeys" ("user_id");
--> statement-breakpoint
-- Recovery codes: SHA-256 of each (they are random, 50 bits), single use.
CREATE TABLE "user_recovery_codes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "user_recovery_codes_user_idx" ON "user_recovery_codes" ("user_id");
--> statement-breakpoint
-- Short-lived challenges: a sign-in waiting for its second factor ('login', the ticket's SHA-256 as
-- token_hash) and a passkey being registered ('passkey', keyed by the user). webauthn_challenge is the
-- challenge the browser must sign.
CREATE TABLE "auth_challenges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL CHECK ("purpose" IN ('login', 'passkey')),
	"remember" boolean DEFAULT false NOT NULL,
	"webauthn_challenge" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "auth_challenges_token_uq" ON "auth_challenges" ("token_hash");
--> statement-breakpoint
CREATE INDEX "auth_challenges_user_idx" ON "auth_challenges" ("user_id");
