DROP INDEX "orders_link_token_key";--> statement-breakpoint
DROP INDEX "orders_buyer_idx";--> statement-breakpoint
CREATE INDEX "orders_live_new_idx" ON "orders" USING btree ("user_id","created_at") WHERE "orders"."kind" = 'new' and "orders"."status" in (0, 1, 2);--> statement-breakpoint
CREATE UNIQUE INDEX "orders_link_token_key" ON "orders" USING btree ("link_token") WHERE "orders"."link_token" is not null;--> statement-breakpoint
CREATE INDEX "orders_buyer_idx" ON "orders" USING btree ("buyer_id","created_at") WHERE "orders"."buyer_id" is not null;