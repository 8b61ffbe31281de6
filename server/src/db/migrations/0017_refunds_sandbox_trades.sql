CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"refund_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"payment_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_check" CHECK ("refunds"."amount" > 0),
	CONSTRAINT "refunds_status_check" CHECK ("refunds"."status" in ('requested', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "sandbox_pay_refunds" (
	"refund_no" text PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"succeeded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_pay_trades" (
	"trade_no" text PRIMARY KEY NOT NULL,
	"provider_trade_id" text NOT NULL,
	"order_no" text NOT NULL,
	"amount" integer NOT NULL,
	"pay_method" smallint NOT NULL,
	"return_url" text NOT NULL,
	"status" text NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "sandbox_pay_trades_refunded_check" CHECK ("sandbox_pay_trades"."refunded" >= 0 and "sandbox_pay_trades"."refunded" <= "sandbox_pay_trades"."amount")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_pay_refunds" ADD CONSTRAINT "sandbox_pay_refunds_trade_no_sandbox_pay_trades_trade_no_fk" FOREIGN KEY ("trade_no") REFERENCES "public"."sandbox_pay_trades"("trade_no") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_refund_no_key" ON "refunds" USING btree ("refund_no");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_payment_key" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "refunds_open_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'pending';