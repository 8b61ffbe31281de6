/** What the layers above (routes, the job, the console, the composition root) use of auto-renew/. */
export { AutoRenewService } from './auto-renew-service'
export {
  AutoRenewRun,
  CLAIM_BATCH,
  CLAIM_MS,
  RETRY_MS,
  type AutoRenewBatch,
} from './auto-renew-run'
