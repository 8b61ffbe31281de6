CREATE INDEX IF NOT EXISTS "users_company_status_idx" ON "users" USING btree ("company_status","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_avatar_idx" ON "users" USING btree ("avatar");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "orders_paid_idx" ON "orders" USING btree ("paid_at") WHERE "orders"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_coupons_expiry_idx" ON "user_coupons" USING btree ("status","valid_until");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "user_coupons_template_idx" ON "user_coupons" USING btree ("template_id","status","valid_until");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "device_transfers_device_idx" ON "device_transfers" USING btree ("device_id","created_at");