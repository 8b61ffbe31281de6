CREATE TABLE "goods_stock_slots" (
	"good_id" integer NOT NULL,
	"zone_id" integer NOT NULL,
	"slot" smallint NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "goods_stock_slots_good_id_zone_id_slot_pk" PRIMARY KEY("good_id","zone_id","slot"),
	CONSTRAINT "goods_stock_slots_stock_check" CHECK ("goods_stock_slots"."stock" >= 0),
	CONSTRAINT "goods_stock_slots_slot_check" CHECK ("goods_stock_slots"."slot" >= 0 and "goods_stock_slots"."slot" < 16)
);
--> statement-breakpoint
-- Each goods × zone's stock spread evenly over its 16 slots (slot i gets one of the remainder’s units when i < stock % 16).
INSERT INTO "goods_stock_slots" ("good_id", "zone_id", "slot", "stock")
SELECT "good_id", "zone_id", "slot", "stock" / 16 + CASE WHEN "slot" < "stock" % 16 THEN 1 ELSE 0 END
FROM "goods_inventory", generate_series(0, 15) AS "slot";--> statement-breakpoint
DROP TABLE "goods_inventory" CASCADE;--> statement-breakpoint
ALTER TABLE "goods_stock_slots" ADD CONSTRAINT "goods_stock_slots_good_id_goods_id_fk" FOREIGN KEY ("good_id") REFERENCES "public"."goods"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goods_stock_slots" ADD CONSTRAINT "goods_stock_slots_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE VIEW "public"."goods_inventory" AS (select "good_id", "zone_id", sum("stock")::int as "stock" from "goods_stock_slots" group by "goods_stock_slots"."good_id", "goods_stock_slots"."zone_id");