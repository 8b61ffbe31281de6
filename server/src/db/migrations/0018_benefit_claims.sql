CREATE TABLE "benefit_claims" (
	"subject" text NOT NULL,
	"benefit" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "benefit_claims_pkey" PRIMARY KEY("subject","benefit"),
	CONSTRAINT "benefit_claims_benefit_check" CHECK ("benefit_claims"."benefit" in ('welcome', 'trial', 'firstPurchase', 'firstRecharge'))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_purchase_used" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_recharge_used" boolean DEFAULT false NOT NULL;