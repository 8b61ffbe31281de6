CREATE TABLE "device_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"grantee_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"permission" smallint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "device_grants_permission_check" CHECK ("device_grants"."permission" in (1, 2))
);
--> statement-breakpoint
CREATE TABLE "device_share_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"owner_id" integer NOT NULL,
	"device_ids" jsonb NOT NULL,
	"permission" smallint NOT NULL,
	"grant_days" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_by" integer,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_share_codes_permission_check" CHECK ("device_share_codes"."permission" in (1, 2))
);
--> statement-breakpoint
ALTER TABLE "device_grants" ADD CONSTRAINT "device_grants_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_grants" ADD CONSTRAINT "device_grants_grantee_id_users_id_fk" FOREIGN KEY ("grantee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_grants" ADD CONSTRAINT "device_grants_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_share_codes" ADD CONSTRAINT "device_share_codes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_share_codes" ADD CONSTRAINT "device_share_codes_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "device_grants_live_key" ON "device_grants" USING btree ("device_id","grantee_id") WHERE "device_grants"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "device_grants_grantee_idx" ON "device_grants" USING btree ("grantee_id","expires_at");--> statement-breakpoint
CREATE INDEX "device_grants_owner_idx" ON "device_grants" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_share_codes_code_key" ON "device_share_codes" USING btree ("code");