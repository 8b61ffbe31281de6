CREATE TABLE "activation_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"order_id" bigint NOT NULL,
	"owner_id" integer NOT NULL,
	"good_id" integer NOT NULL,
	"good_time" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"used_by" integer,
	"used_at" timestamp with time zone,
	"device_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "activation_codes_status_check" CHECK ("activation_codes"."status" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE "bean_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bean_accounts_balance_check" CHECK ("bean_accounts"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bean_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"change" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" bigint,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods" (
	"id" serial PRIMARY KEY NOT NULL,
	"level" smallint NOT NULL,
	"name" text NOT NULL,
	"config_name" text NOT NULL,
	"android_version" text NOT NULL,
	"image_type" smallint DEFAULT 1 NOT NULL,
	"max_per_order" integer NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"permissions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"video_daily_fee" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"on_sale" boolean DEFAULT true NOT NULL,
	CONSTRAINT "goods_android_version_check" CHECK ("goods"."android_version" in ('B', 'H')),
	CONSTRAINT "goods_image_type_check" CHECK ("goods"."image_type" between 1 and 3),
	CONSTRAINT "goods_max_per_order_check" CHECK ("goods"."max_per_order" >= 1)
);
--> statement-breakpoint
CREATE TABLE "goods_inventory" (
	"good_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "goods_inventory_good_id_zone_id_pk" PRIMARY KEY("good_id","zone_id"),
	CONSTRAINT "goods_inventory_stock_check" CHECK ("goods_inventory"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "goods_levels" (
	"level" smallint PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"theme_color" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "goods_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"good_id" integer NOT NULL,
	"good_time" integer NOT NULL,
	"good_price" integer NOT NULL,
	"old_good_price" integer,
	"first_purchase_price" integer,
	"first_count" integer DEFAULT 0 NOT NULL,
	"activity_id" integer,
	"activity_price" integer,
	"activity_ends_at" timestamp with time zone,
	CONSTRAINT "goods_prices_positive_check" CHECK ("goods_prices"."good_price" > 0 and "goods_prices"."good_time" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"buyer_id" integer,
	"business_type" smallint NOT NULL,
	"kind" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"amount" integer NOT NULL,
	"original_amount" integer NOT NULL,
	"quantity" integer NOT NULL,
	"good_id" integer,
	"price_id" integer,
	"good_time" integer,
	"zone_id" integer,
	"reserved_good_id" integer,
	"reserved_zone_id" integer,
	"reserved_quantity" integer DEFAULT 0 NOT NULL,
	"device_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pay_method" smallint,
	"pay_deadline" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"link_token" text,
	"remark" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" between 0 and 5),
	CONSTRAINT "orders_amount_check" CHECK ("orders"."amount" >= 0 and "orders"."reserved_quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"trade_no" text NOT NULL,
	"event" text NOT NULL,
	"outcome" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"payer_id" integer NOT NULL,
	"provider" text NOT NULL,
	"pay_method" smallint NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"return_url" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "zones" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "zones_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "device_auth_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"session_hash" text,
	"session_expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"good_id" integer NOT NULL,
	"level" smallint NOT NULL,
	"zone_id" integer NOT NULL,
	"android_version" text NOT NULL,
	"image_type" smallint NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"group_id" integer,
	"order_id" bigint,
	"supplier_instance_id" text,
	"pending_instance_id" text,
	"op_seq" integer DEFAULT 0 NOT NULL,
	"busy_op" text,
	"fail_reason" text,
	"expire_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone,
	"supplier_released" boolean DEFAULT false NOT NULL,
	"video_edition" boolean DEFAULT false NOT NULL,
	"model" text,
	"image_version" text,
	"cover_updated_at" timestamp with time zone,
	"reminded_for_expire_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "devices_status_check" CHECK ("devices"."status" between 0 and 5)
);
--> statement-breakpoint
CREATE TABLE "sandbox_supplier_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"name" text NOT NULL,
	"good_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"status" text NOT NULL,
	"op" text,
	"op_started_at" timestamp with time zone,
	"op_ready_at" timestamp with time zone,
	"op_fails" boolean DEFAULT false NOT NULL,
	"op_target" jsonb,
	"fail_reason" text,
	"expire_at" timestamp with time zone NOT NULL,
	"model" text NOT NULL,
	"image_version" text NOT NULL,
	"apps" jsonb NOT NULL,
	"hue" smallint NOT NULL,
	"last_command" text,
	"last_command_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activation_codes" ADD CONSTRAINT "activation_codes_used_by_users_id_fk" FOREIGN KEY ("used_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bean_accounts" ADD CONSTRAINT "bean_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bean_ledger" ADD CONSTRAINT "bean_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bean_ledger" ADD CONSTRAINT "bean_ledger_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods" ADD CONSTRAINT "goods_level_goods_levels_level_fk" FOREIGN KEY ("level") REFERENCES "public"."goods_levels"("level") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_inventory" ADD CONSTRAINT "goods_inventory_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_inventory" ADD CONSTRAINT "goods_inventory_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_prices" ADD CONSTRAINT "goods_prices_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_price_id_goods_prices_id_fk" FOREIGN KEY ("price_id") REFERENCES "public"."goods_prices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_auth_tokens" ADD CONSTRAINT "device_auth_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_auth_tokens" ADD CONSTRAINT "device_auth_tokens_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_groups" ADD CONSTRAINT "device_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_group_id_device_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."device_groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activation_codes_code_key" ON "activation_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "activation_codes_owner_idx" ON "activation_codes" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "bean_ledger_user_idx" ON "bean_ledger" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "goods_level_idx" ON "goods" USING btree ("level","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "goods_prices_good_time_key" ON "goods_prices" USING btree ("good_id","good_time");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_key" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_link_token_key" ON "orders" USING btree ("link_token");--> statement-breakpoint
CREATE INDEX "orders_user_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_unpaid_idx" ON "orders" USING btree ("status","pay_deadline");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_notifications_trade_key" ON "payment_notifications" USING btree ("provider","trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_trade_no_key" ON "payments" USING btree ("trade_no");--> statement-breakpoint
CREATE INDEX "payments_order_idx" ON "payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_auth_tokens_token_key" ON "device_auth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "device_auth_tokens_session_key" ON "device_auth_tokens" USING btree ("session_hash");--> statement-breakpoint
CREATE INDEX "device_auth_tokens_expires_idx" ON "device_auth_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "device_groups_user_name_key" ON "device_groups" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "devices_user_status_idx" ON "devices" USING btree ("user_id","status","id");--> statement-breakpoint
CREATE INDEX "devices_user_group_idx" ON "devices" USING btree ("user_id","group_id");--> statement-breakpoint
CREATE INDEX "devices_status_expire_idx" ON "devices" USING btree ("status","expire_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_supplier_instances_request_key" ON "sandbox_supplier_instances" USING btree ("request_id");