CREATE TABLE "coupon_issues" (
	"id" text PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"target" jsonb NOT NULL,
	"operator_id" integer,
	"issued" integer,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "user_coupons" ADD COLUMN "issue_id" text;--> statement-breakpoint
ALTER TABLE "coupon_issues" ADD CONSTRAINT "coupon_issues_template_id_coupon_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."coupon_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_coupons_issue_user_key" ON "user_coupons" USING btree ("issue_id","user_id");