ALTER TABLE "bean_accounts" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_balances" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;