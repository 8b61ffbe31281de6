CREATE TABLE "device_auto_renew" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"days" integer NOT NULL,
	"pay_method" smallint NOT NULL,
	"failure" text,
	"failed_at" timestamp with time zone,
	"failed_for_expire_at" timestamp with time zone,
	"notified_for_expire_at" timestamp with time zone,
	"retry_at" timestamp with time zone,
	"last_order_id" bigint,
	"renewed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "device_auto_renew_pay_method_check" CHECK ("device_auto_renew"."pay_method" in (3, 4)),
	CONSTRAINT "device_auto_renew_days_check" CHECK ("device_auto_renew"."days" > 0)
);
--> statement-breakpoint
ALTER TABLE "device_auto_renew" ADD CONSTRAINT "device_auto_renew_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_auto_renew" ADD CONSTRAINT "device_auto_renew_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "device_auto_renew_user_idx" ON "device_auto_renew" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "device_auto_renew_failed_idx" ON "device_auto_renew" USING btree ("failed_at") WHERE "device_auto_renew"."failure" is not null;--> statement-breakpoint
-- The phone card shows 自动续费 and its last failure, so a change of a phone's setting raises its owner's
-- device list (fleet_versions, migration 0012), whoever writes it: the owner, the job, a cascade.
CREATE FUNCTION device_auto_renew_fleet_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM bump_fleet_versions(ARRAY(SELECT user_id FROM old_rows));
  ELSE
    PERFORM bump_fleet_versions(ARRAY(
      SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows
    ));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER device_auto_renew_fleet_inserted AFTER INSERT ON device_auto_renew
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_auto_renew_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER device_auto_renew_fleet_updated AFTER UPDATE ON device_auto_renew
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_auto_renew_fleet_changed();
--> statement-breakpoint
CREATE TRIGGER device_auto_renew_fleet_deleted AFTER DELETE ON device_auto_renew
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION device_auto_renew_fleet_changed();
