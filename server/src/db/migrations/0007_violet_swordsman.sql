CREATE TABLE "device_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"batch_id" text NOT NULL,
	"from_user_id" integer NOT NULL,
	"to_user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"device_name" text NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_transfers" ADD CONSTRAINT "device_transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_transfers" ADD CONSTRAINT "device_transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_transfers_from_idx" ON "device_transfers" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE INDEX "device_transfers_to_idx" ON "device_transfers" USING btree ("to_user_id","created_at");