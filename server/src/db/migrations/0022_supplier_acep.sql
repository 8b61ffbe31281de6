CREATE TABLE "acep_pods" (
	"request_id" text PRIMARY KEY NOT NULL,
	"pod_name" text NOT NULL,
	"pod_id" text,
	"good_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"model" text NOT NULL,
	"seen_running" integer DEFAULT 0 NOT NULL,
	"migrate_task_id" text,
	"migrate_zone_id" integer,
	"copy_stage" text,
	"copy_task_id" text,
	"screen_url" text,
	"screen_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "acep_tasks" (
	"task_id" text PRIMARY KEY NOT NULL,
	"request_id" text,
	"kind" text NOT NULL,
	"pod_id" text NOT NULL,
	"backup_data_id" text,
	"status" text NOT NULL,
	"size_bytes" bigint DEFAULT 0 NOT NULL,
	"fail_reason" text,
	"last_message_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "acep_tasks_request_id_unique" UNIQUE("request_id")
);
--> statement-breakpoint
CREATE TABLE "supplier_catalogue" (
	"supplier" text NOT NULL,
	"kind" text NOT NULL,
	"local_id" integer NOT NULL,
	"remote_id" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "supplier_catalogue_supplier_kind_local_id_pk" PRIMARY KEY("supplier","kind","local_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "acep_pods_pod_key" ON "acep_pods" USING btree ("pod_id");