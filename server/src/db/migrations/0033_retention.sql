CREATE INDEX IF NOT EXISTS "auth_tokens_expires_idx" ON "auth_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "auth_tokens_revoked_idx" ON "auth_tokens" USING btree ("revoked_at") WHERE "auth_tokens"."revoked_at" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "login_failures_created_idx" ON "login_failures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mobile_change_tickets_expires_idx" ON "mobile_change_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "sms_codes_created_idx" ON "sms_codes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "usage_logs_first_at_idx" ON "usage_logs" USING btree ("first_at");