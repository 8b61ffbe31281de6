CREATE TABLE "wechat_bind_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_hash" text NOT NULL,
	"source" text NOT NULL,
	"open_id" text NOT NULL,
	"union_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "wechat_bind_tickets_ticket_hash_unique" UNIQUE("ticket_hash")
);
--> statement-breakpoint
CREATE INDEX "wechat_bind_tickets_expires_idx" ON "wechat_bind_tickets" USING btree ("expires_at");