CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"banner" text,
	"rules" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"enabled" smallint DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activities_kind_check" CHECK ("activities"."kind" in ('seckill', 'info')),
	CONSTRAINT "activities_enabled_check" CHECK ("activities"."enabled" in (0, 1)),
	CONSTRAINT "activities_window_check" CHECK ("activities"."ends_at" > "activities"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "seckill_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"activity_id" integer NOT NULL,
	"price_id" integer NOT NULL,
	"price" integer NOT NULL,
	"stock" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"per_user_limit" integer DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "seckill_items_price_check" CHECK ("seckill_items"."price" > 0),
	CONSTRAINT "seckill_items_sold_check" CHECK ("seckill_items"."sold" >= 0 and "seckill_items"."sold" <= "seckill_items"."stock"),
	CONSTRAINT "seckill_items_limit_check" CHECK ("seckill_items"."per_user_limit" = 1)
);
--> statement-breakpoint
CREATE TABLE "seckill_purchases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "seckill_purchases_status_check" CHECK ("seckill_purchases"."status" in ('reserved', 'paid'))
);
--> statement-breakpoint
ALTER TABLE "seckill_items" ADD CONSTRAINT "seckill_items_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seckill_items" ADD CONSTRAINT "seckill_items_price_id_goods_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."goods_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seckill_purchases" ADD CONSTRAINT "seckill_purchases_item_id_seckill_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."seckill_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seckill_purchases" ADD CONSTRAINT "seckill_purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seckill_purchases" ADD CONSTRAINT "seckill_purchases_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_window_idx" ON "activities" USING btree ("enabled","ends_at");--> statement-breakpoint
CREATE INDEX "seckill_items_activity_idx" ON "seckill_items" USING btree ("activity_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "seckill_purchases_item_user_key" ON "seckill_purchases" USING btree ("item_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "seckill_purchases_order_key" ON "seckill_purchases" USING btree ("order_id");