CREATE TABLE "scan_login_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requester" text NOT NULL,
	"requester_ip" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"scanned_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "scan_login_sessions_status_check" CHECK ("scan_login_sessions"."status" in ('pending', 'scanned', 'confirmed', 'refused', 'expired', 'consumed'))
);
--> statement-breakpoint
ALTER TABLE "scan_login_sessions" ADD CONSTRAINT "scan_login_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_login_sessions_expires_idx" ON "scan_login_sessions" USING btree ("expires_at");