CREATE TABLE "app_install_results" (
	"install_id" bigint NOT NULL,
	"device_id" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"supplier_task" text,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "app_install_results_install_id_device_id_pk" PRIMARY KEY("install_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "app_installs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"app_id" integer,
	"app_name" text NOT NULL,
	"package_name" text NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "app_supplier_copies" (
	"app_id" integer NOT NULL,
	"supplier" text NOT NULL,
	"status" text NOT NULL,
	"supplier_app_id" text,
	"supplier_version_id" text,
	"task_id" text,
	"fail_reason" text,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "app_supplier_copies_app_id_supplier_pk" PRIMARY KEY("app_id","supplier")
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"package_name" text NOT NULL,
	"name" text NOT NULL,
	"version_name" text NOT NULL,
	"version_code" bigint NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"apk_path" text NOT NULL,
	"icon_path" text,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_install_results" ADD CONSTRAINT "app_install_results_install_id_app_installs_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."app_installs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_install_results" ADD CONSTRAINT "app_install_results_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_installs" ADD CONSTRAINT "app_installs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_installs" ADD CONSTRAINT "app_installs_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_supplier_copies" ADD CONSTRAINT "app_supplier_copies_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "app_install_results_open_idx" ON "app_install_results" USING btree ("install_id","status") WHERE "app_install_results"."status" in ('pending', 'installing');--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "app_installs_user_idx" ON "app_installs" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "app_installs_app_idx" ON "app_installs" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "apps_owner_idx" ON "apps" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "apps_owner_sha_key" ON "apps" USING btree ("owner_id","sha256") WHERE "apps"."owner_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "apps_catalogue_sha_key" ON "apps" USING btree ("sha256") WHERE "apps"."owner_id" is null;