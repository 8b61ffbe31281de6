/**
 * The operator console's server module, the one entry app.ts uses: its services (built on the user
 * API's, which never import this folder), its background job, its API under /vmcloud/admin/api with its
 * own cookie and hook, and its built pages at /admin.
 */
import type { FastifyPluginAsync } from 'fastify'
import type { Services } from '../services'
import type { JobDefinition } from '../jobs/scheduler'
import { ADMIN_API_PREFIX } from './contract'
import { deliverOperatorMessageJob } from './jobs/deliver-operator-message'
import { registerAdminConsole } from './plugins/static'
import consoleApi from './routes'
import type { ConsoleApiOptions } from './routes/options'
import { createConsoleServices, type ConsoleServices } from './services'

export { consoleDocumentPolicy } from './plugins/static'
export type { ConsoleServices }

declare module 'fastify' {
  interface FastifyInstance {
    /** The console's services (console/services/index.ts). */
    console: ConsoleServices
  }
}

/** The console's services and the jobs that run them, for app.ts to add to the scheduler. */
export function createConsole(services: Services): {
  services: ConsoleServices
  jobs: JobDefinition[]
} {
  const consoleServices = createConsoleServices(services)
  return { services: consoleServices, jobs: [deliverOperatorMessageJob(consoleServices)] }
}

export interface OperatorConsoleOptions extends ConsoleApiOptions {
  /** The console's build (dist/admin), served at /admin; null: /admin says it is not built. */
  adminDist: string | null
}

/** The console's API and pages; `app.console` is decorated before this is registered. */
export const operatorConsole: FastifyPluginAsync<OperatorConsoleOptions> = async (app, options) => {
  const { secureCookie, signInLimits, adminDist } = options
  await app.register(consoleApi, { prefix: ADMIN_API_PREFIX, secureCookie, signInLimits })
  await registerAdminConsole(app, adminDist)
}
