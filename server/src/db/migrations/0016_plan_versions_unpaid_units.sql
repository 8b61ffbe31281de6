ALTER TABLE "users" ADD COLUMN "company_status" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "unpaid_units" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "plan_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- A phone's plan version moves with everything a renewal, up/downgrade or video order is priced
-- against (schema-fleet.ts devices.planVersion): such an order is refunded, not applied, if it moved.
CREATE FUNCTION devices_plan_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.good_id, NEW.expire_at, NEW.video_edition, NEW.zone_id, NEW.user_id, NEW.status = 3)
     IS DISTINCT FROM
     (OLD.good_id, OLD.expire_at, OLD.video_edition, OLD.zone_id, OLD.user_id, OLD.status = 3) THEN
    NEW.plan_version := OLD.plan_version + 1;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER devices_plan_version BEFORE UPDATE ON devices
  FOR EACH ROW EXECUTE FUNCTION devices_plan_changed();
--> statement-breakpoint
-- The stock units a user's unpaid orders hold (users.unpaid_units), kept by every writer of orders;
-- the check below caps it, so one account cannot hold a zone's stock without paying.
CREATE FUNCTION orders_unpaid_units_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := 0;
  owner integer;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    owner := OLD.user_id;
    IF OLD.status = 0 THEN delta := delta - OLD.reserved_quantity; END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    owner := NEW.user_id;
    IF NEW.status = 0 THEN delta := delta + NEW.reserved_quantity; END IF;
  END IF;
  IF delta <> 0 THEN
    UPDATE users SET unpaid_units = unpaid_units + delta WHERE id = owner;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER orders_unpaid_units AFTER INSERT OR DELETE OR UPDATE OF status, reserved_quantity
  ON orders FOR EACH ROW EXECUTE FUNCTION orders_unpaid_units_changed();
--> statement-breakpoint
UPDATE users u SET unpaid_units = coalesce((
  SELECT sum(o.reserved_quantity) FROM orders o WHERE o.user_id = u.id AND o.status = 0), 0);
--> statement-breakpoint
-- Company buyers declared themselves until now; from here an operator verifies them
-- (npm run company:verify). Those already declared wait for that verification.
UPDATE users SET company_status = 1, user_type = 1 WHERE user_type = 2;
--> statement-breakpoint
-- UNPAID_UNITS_CAP in services/order-pricing.ts: a personal buyer 50 units (one retail order's most),
-- a verified company 1000 (two big-user orders). NOT VALID: rows above it before now stay until paid.
ALTER TABLE users ADD CONSTRAINT users_unpaid_units_cap
  CHECK (unpaid_units >= 0 AND unpaid_units <= CASE WHEN user_type = 2 THEN 1000 ELSE 50 END) NOT VALID;
