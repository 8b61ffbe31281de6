CREATE TABLE "floating_ball_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"visible" boolean NOT NULL,
	"side" text NOT NULL,
	"opacity" smallint NOT NULL,
	"shortcuts" jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "floating_ball_side_check" CHECK ("floating_ball_settings"."side" in ('left', 'right')),
	CONSTRAINT "floating_ball_opacity_check" CHECK ("floating_ball_settings"."opacity" between 30 and 100)
);
--> statement-breakpoint
CREATE TABLE "game_trials" (
	"id" smallint PRIMARY KEY NOT NULL,
	"game_name" text NOT NULL,
	"description" text NOT NULL,
	"highlights" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"package_name" text NOT NULL,
	"package_size" bigint NOT NULL,
	"version" text NOT NULL,
	"download_url" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"invitee_id" integer PRIMARY KEY NOT NULL,
	"inviter_id" integer NOT NULL,
	"invite_code" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "new_user_guide_steps" (
	"id" integer PRIMARY KEY NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"image" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_claims" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"device_id" bigint NOT NULL,
	"good_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_offers" (
	"id" smallint PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"good_id" integer NOT NULL,
	"minutes" integer NOT NULL,
	"zone_policy" text DEFAULT 'mostStock' NOT NULL,
	CONSTRAINT "trial_offers_minutes_check" CHECK ("trial_offers"."minutes" > 0)
);
--> statement-breakpoint
ALTER TABLE "floating_ball_settings" ADD CONSTRAINT "floating_ball_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_invitee_id_users_id_fk" FOREIGN KEY ("invitee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_claims" ADD CONSTRAINT "trial_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_offers" ADD CONSTRAINT "trial_offers_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invites_inviter_idx" ON "invites" USING btree ("inviter_id","created_at");