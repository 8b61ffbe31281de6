CREATE INDEX "jobs_device_idx" ON "jobs" USING btree (("payload"->>'deviceId'));--> statement-breakpoint
CREATE INDEX "devices_supplier_instance_idx" ON "devices" USING btree ("supplier_instance_id");