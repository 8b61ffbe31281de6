CREATE TABLE "sandbox_supplier_backup_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"instance_id" text NOT NULL,
	"kind" text NOT NULL,
	"source_id" text,
	"status" text NOT NULL,
	"fails" boolean DEFAULT false NOT NULL,
	"apps" jsonb NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"ready_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sandbox_supplier_backup_tasks_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "space_tasks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"device_name" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"backup_id" bigint,
	"supplier_task_id" text,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"fail_code" integer,
	"fail_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "space_tasks_kind_check" CHECK ("space_tasks"."kind" in ('backup', 'restore')),
	CONSTRAINT "space_tasks_status_check" CHECK ("space_tasks"."status" in ('running', 'done', 'failed', 'interrupted'))
);
--> statement-breakpoint
ALTER TABLE "space_tasks" ADD CONSTRAINT "space_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "space_tasks" ADD CONSTRAINT "space_tasks_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "space_tasks_user_idx" ON "space_tasks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "space_tasks_device_idx" ON "space_tasks" USING btree ("device_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "space_tasks_one_running_key" ON "space_tasks" USING btree ("device_id") WHERE "space_tasks"."status" = 'running';