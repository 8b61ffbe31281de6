CREATE TABLE "coupon_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"coupon_type" smallint NOT NULL,
	"par_value" integer NOT NULL,
	"conditions_use" integer,
	"business_type" smallint NOT NULL,
	"scope_applications" text NOT NULL,
	"applicable_objects" text,
	"rules" jsonb,
	"effective_scope" text,
	"valid_days" integer NOT NULL,
	"issue_on" text,
	CONSTRAINT "coupon_templates_type_check" CHECK ("coupon_templates"."coupon_type" between 1 and 5),
	CONSTRAINT "coupon_templates_par_value_check" CHECK ("coupon_templates"."par_value" >= 0),
	CONSTRAINT "coupon_templates_valid_days_check" CHECK ("coupon_templates"."valid_days" > 0)
);
--> statement-breakpoint
CREATE TABLE "user_coupons" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"locked_order_id" bigint,
	"used_order_id" bigint,
	"discount" integer,
	"issued_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "user_coupons_status_check" CHECK ("user_coupons"."status" between 1 and 4)
);
--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_template_id_coupon_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."coupon_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_locked_order_id_orders_id_fk" FOREIGN KEY ("locked_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_coupons" ADD CONSTRAINT "user_coupons_used_order_id_orders_id_fk" FOREIGN KEY ("used_order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_coupons_user_idx" ON "user_coupons" USING btree ("user_id","status","valid_until");--> statement-breakpoint
CREATE INDEX "user_coupons_locked_idx" ON "user_coupons" USING btree ("locked_order_id");