ALTER TABLE "jobs" ADD COLUMN "lease_token" text;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_guesses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "operators" ADD COLUMN "totp_guesses_since" timestamp with time zone;