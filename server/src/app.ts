import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { PaymentProvider } from './adapters/payment/payment-provider'
import { PaymentProviders } from './adapters/payment/payment-providers'
import { SandboxPaymentProvider } from './adapters/payment/sandbox/sandbox-payment'
import { SandboxSmsAdapter } from './adapters/sms/sandbox-sms'
import type { SmsAdapter } from './adapters/sms/sms-adapter'
import { SandboxSupplier } from './adapters/supplier/sandbox/sandbox-supplier'
import type { SupplierAdapter } from './adapters/supplier/supplier-adapter'
import { SandboxWechatAdapter } from './adapters/wechat/sandbox-wechat'
import type { WechatAdapter } from './adapters/wechat/wechat-adapter'
import { rateLimitsOf, type ServerConfig } from './config'
import type { Database } from './db/client'
import { jobDefinitions } from './jobs'
import { JobScheduler } from './jobs/scheduler'
import { addAuthHook } from './plugins/auth'
import emptyBody from './plugins/empty-body'
import { sendEnvelope } from './plugins/envelope'
import errorHandling, { API_PREFIX, frameworkErrors } from './plugins/errors'
import { externalPlugins, externalRoutes } from './plugins/external'
import {
  h5IndexExists,
  isSpaNavigation,
  registerH5,
  sendSpaIndex,
  type LivePages,
} from './plugins/h5-static'
import { CREATE_PAGE, levelGoodsDocument } from './plugins/level-goods-document'
import { withLogRedaction } from './plugins/log-redaction'
import textInput from './plugins/text-input'
import { schemaCompilers } from './plugins/validation'
import apiRoutes from './routes'
import { consoleDocumentPolicy, createConsole, operatorConsole } from './console'
import { systemClock, type Clock } from './clock'
import { createServices, type Services } from './services'
import { serviceSettings, type ServiceContext } from './services/context'

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    jobs: JobScheduler
  }
}

/** What tests and benches put in place of the real thing; without it, the sandbox or the system's. */
export interface AppOverrides {
  /** Default: the sandbox adapter, logging codes through the app logger. */
  sms?: SmsAdapter
  /** Default: the sandbox adapter (codes `sandbox:<anything>`). */
  wechat?: WechatAdapter
  /** Default: the sandbox supplier in our own database, with the config's sandboxSupplier… settings. */
  supplier?: SupplierAdapter
  /** The default sandbox supplier's dice for its failures (default Math.random). */
  sandboxSupplierRandom?: () => number
  /**
   * Payment providers, each collecting its pay methods; the sandbox provider (in our own database, with
   * the config's sandboxPay… settings) collects the methods none of them does. Default: none.
   */
  payments?: PaymentProvider[]
  clock?: Clock
  /** Default: the config's logLevel. */
  logger?: FastifyServerOptions['logger']
  /** Poll the job table in the background (the server does; tests call app.jobs.runDue()). */
  startJobs?: boolean
}

export interface BuildAppOptions {
  /** The settings, as loadConfig makes them (tests: testConfig in server/test/helpers). */
  config: ServerConfig
  database: Database
  overrides?: AppOverrides
}

export async function buildApp({ config, database, overrides = {} }: BuildAppOptions) {
  const app = Fastify({
    logger: withLogRedaction(overrides.logger ?? { level: config.logLevel }),
    frameworkErrors,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ...schemaCompilers(),
  }).withTypeProvider<TypeBoxTypeProvider>()

  // the app's services, the console's and their jobs, which every plugin and route below reads
  const services = createServices(serviceContext(config, database, overrides, app.log))
  const operator = createConsole(services)
  app.decorate('services', services)
  app.decorate('console', operator.services)
  const jobs = new JobScheduler(database.db, services.ctx.clock, app.log, [
    ...jobDefinitions(database.db, services),
    ...operator.jobs,
  ])
  app.decorate('jobs', jobs)
  const rateLimits = rateLimitsOf(config)

  // external plugins (hooks and parsers, no route)
  await app.register(externalPlugins, {
    h5Dist: config.h5Dist,
    ownDocumentPolicy: consoleDocumentPolicy,
    rateLimits,
  })

  // the app's own plugins: one error handler, the text gate, empty bodies
  await app.register(errorHandling)
  await app.register(textInput)
  await app.register(emptyBody)

  // routes: /docs and /files, the user API, the operator console, the H5 app, and what is not found
  await app.register(externalRoutes, { apiDocs: config.apiDocs, filesDir: config.filesDir })
  await app.register(
    async (api) => {
      addAuthHook(api)
      await api.register(apiRoutes, {
        sensitivePerMinute: rateLimits?.sensitivePerMinute ?? null,
        sandboxRoutes: !config.production,
      })
    },
    { prefix: API_PREFIX },
  )
  // the operator console: its API (own prefix, cookie and hook, never the user API's) and its pages
  await app.register(operatorConsole, {
    secureCookie: config.production,
    signInLimits: rateLimits?.operatorSignIn ?? null,
    adminDist: config.adminDist,
  })
  await registerH5AndNotFound(app, config.h5Dist, services)

  if (overrides.startJobs) {
    app.addHook('onReady', async () => {
      await jobs.ensureRecurring()
      jobs.start(config.jobPollMs)
    })
  }
  app.addHook('onClose', async () => {
    await jobs.stop()
  })
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>

/** What every service gets: the configured settings, and the overrides' adapters or the sandboxes. */
function serviceContext(
  config: ServerConfig,
  { db }: Database,
  overrides: AppOverrides,
  log: FastifyBaseLogger,
): ServiceContext {
  const clock = overrides.clock ?? systemClock
  return {
    db,
    clock,
    log,
    sms: overrides.sms ?? new SandboxSmsAdapter(log),
    wechat: overrides.wechat ?? new SandboxWechatAdapter(),
    supplier:
      overrides.supplier ??
      new SandboxSupplier(db, clock, {
        delayMs: config.sandboxSupplierDelayMs,
        failureRate: config.sandboxSupplierFailureRate,
        random: overrides.sandboxSupplierRandom,
      }),
    paymentProviders: PaymentProviders.withSandbox(
      overrides.payments ?? [],
      (methods) =>
        new SandboxPaymentProvider(db, clock, {
          secret: config.sandboxPaySecret,
          delayMs: config.sandboxPayDelayMs,
          methods,
        }),
    ),
    settings: serviceSettings(config),
  }
}

/** The H5 app when its build is there (in-app navigations get its documents), and 404's envelope. */
async function registerH5AndNotFound(
  app: FastifyInstance,
  configuredDist: string | null,
  services: Services,
) {
  const h5Dist = configuredDist && h5IndexExists(configuredDist) ? configuredDist : null
  // 创建云机's document is made for each request, with the live catalogue in it
  const createPage =
    h5Dist &&
    levelGoodsDocument(
      h5Dist,
      () => services.goodsList.listLevelsJson({}),
      () => services.ctx.clock.now().getTime(),
    )
  const livePages: LivePages = new Map(createPage ? [[CREATE_PAGE, createPage]] : [])
  if (h5Dist) await registerH5(app, h5Dist, livePages)
  app.setNotFoundHandler((request, reply) => {
    if (h5Dist && isSpaNavigation(request)) return sendSpaIndex(request, reply, h5Dist, livePages)
    return sendEnvelope(reply, 404, 404, 'Not Found')
  })
}
