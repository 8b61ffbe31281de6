-- A renewal's sync jobs carry their order (payload.orderId, fulfilment-service.ts): the order's progress
-- (续费中 n/N, order-reads.ts) counts those still to run. Only such jobs are indexed (issue 29).
CREATE INDEX IF NOT EXISTS "jobs_order_idx" ON "jobs" USING btree ((payload->>'orderId')) WHERE kind = 'sync-device' AND (payload->>'orderId') IS NOT NULL;
