import fs from 'node:fs'
import Fastify, { type FastifyServerOptions } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import fastifyCompress from '@fastify/compress'
import fastifyMultipart from '@fastify/multipart'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { APP_VERSION } from '#constants/limits'
import type { PaymentProvider } from './adapters/payment/payment-provider'
import { PaymentProviders } from './adapters/payment/payment-providers'
import {
  SandboxPaymentProvider,
  type SandboxPaySettings,
} from './adapters/payment/sandbox/sandbox-payment'
import { SandboxSmsAdapter } from './adapters/sms/sandbox-sms'
import type { SmsAdapter } from './adapters/sms/sms-adapter'
import {
  SandboxSupplier,
  type SandboxSupplierSettings,
} from './adapters/supplier/sandbox/sandbox-supplier'
import type { SupplierAdapter } from './adapters/supplier/supplier-adapter'
import { SandboxWechatAdapter } from './adapters/wechat/sandbox-wechat'
import type { WechatAdapter } from './adapters/wechat/wechat-adapter'
import { SERVER_DEFAULTS } from './config'
import { withResultCodes } from './contract/route-codes'
import type { Database } from './db/client'
import { MAX_UPLOAD_BYTES } from './domain/files'
import { jobDefinitions } from './jobs'
import { JobScheduler } from './jobs/scheduler'
import { addAuthHook } from './plugins/auth'
import { COMPRESSION } from './plugins/compression'
import emptyBody from './plugins/empty-body'
import { sendEnvelope } from './plugins/envelope'
import errorHandling, { API_PREFIX, frameworkErrors } from './plugins/errors'
import {
  h5IndexExists,
  isSpaNavigation,
  registerH5,
  sendSpaIndex,
  type LivePages,
} from './plugins/h5-static'
import { CREATE_PAGE, levelGoodsDocument } from './plugins/level-goods-document'
import { withLogRedaction } from './plugins/log-redaction'
import securityHeaders from './plugins/security-headers'
import textInput from './plugins/text-input'
import { schemaCompilers } from './plugins/validation'
import apiRoutes from './routes'
import { consoleDocumentPolicy, createConsole, operatorConsole, type SignInLimits } from './console'
import { systemClock, type Clock } from './clock'
import { createServices, type Services } from './services'

declare module 'fastify' {
  interface FastifyInstance {
    services: Services
    jobs: JobScheduler
  }
}

export interface RateLimits {
  /** Requests per minute per IP for the whole server. */
  globalPerMinute: number
  /** Requests per minute per IP for SMS sending and logins. */
  sensitivePerMinute: number
  /** The operator console's sign-in; default SERVER_DEFAULTS' operatorSignIn… */
  operatorSignIn?: SignInLimits
}

export interface BuildAppOptions {
  database: Database
  /** Default: the sandbox adapter, logging codes through the app logger. */
  sms?: SmsAdapter
  /** Default: the sandbox adapter (codes `sandbox:<anything>`). */
  wechat?: WechatAdapter
  /** Default: the sandbox supplier in our own database, with `sandboxSupplier` settings. */
  supplier?: SupplierAdapter
  sandboxSupplier?: Partial<SandboxSupplierSettings>
  /**
   * Payment providers, each collecting its pay methods; the sandbox provider (in our own database, with
   * `sandboxPayment` settings) collects the methods none of them does. Default: the sandbox for both.
   */
  payments?: PaymentProvider[]
  sandboxPayment?: Partial<SandboxPaySettings>
  filesDir: string
  /** Serve the H5 build from here when it exists. */
  h5Dist?: string | null
  /** The operator console's build (dist/admin), served at /admin; null: /admin says it is not built. */
  adminDist?: string | null
  clock?: Clock
  tokenTtlDays?: number
  /** Default SERVER_DEFAULTS.sessionCacheMs; 0 looks every session up in the database. */
  sessionCacheMs?: number
  customerServiceUrl?: string | null
  /** Default SERVER_DEFAULTS.benefitPepper (development only). */
  benefitPepper?: string
  /** false turns rate limiting off (tests that are not about it). */
  rateLimit?: RateLimits | false
  logger?: FastifyServerOptions['logger']
  trustProxy?: boolean
  /** Poll the job table in the background (the server does; tests call app.jobs.runDue()). */
  startJobs?: boolean
  /**
   * Production: the sandbox adapters' own routes (checkout, control page, last SMS) are not registered,
   * whichever adapters run, and /docs is off unless `apiDocs`.
   */
  production?: boolean
  /** Swagger UI at /docs. Default: on outside production. */
  apiDocs?: boolean
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  globalPerMinute: SERVER_DEFAULTS.rateLimitPerMinute,
  sensitivePerMinute: SERVER_DEFAULTS.sensitiveRateLimitPerMinute,
}

export async function buildApp(options: BuildAppOptions) {
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? false),
    frameworkErrors,
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    ...schemaCompilers(),
  }).withTypeProvider<TypeBoxTypeProvider>()

  const clock = options.clock ?? systemClock
  const supplier =
    options.supplier ??
    new SandboxSupplier(options.database.db, clock, {
      delayMs: options.sandboxSupplier?.delayMs ?? SERVER_DEFAULTS.sandboxSupplierDelayMs,
      failureRate:
        options.sandboxSupplier?.failureRate ?? SERVER_DEFAULTS.sandboxSupplierFailureRate,
      random: options.sandboxSupplier?.random,
    })
  const services = createServices({
    db: options.database.db,
    clock,
    log: app.log,
    sms: options.sms ?? new SandboxSmsAdapter(app.log),
    wechat: options.wechat ?? new SandboxWechatAdapter(),
    supplier,
    paymentProviders: PaymentProviders.withSandbox(
      options.payments ?? [],
      (methods) =>
        new SandboxPaymentProvider(options.database.db, clock, {
          secret: options.sandboxPayment?.secret ?? SERVER_DEFAULTS.sandboxPaySecret,
          delayMs: options.sandboxPayment?.delayMs ?? SERVER_DEFAULTS.sandboxPayDelayMs,
          methods,
        }),
    ),
    settings: {
      tokenTtlDays: options.tokenTtlDays ?? SERVER_DEFAULTS.tokenTtlDays,
      sessionCacheMs: options.sessionCacheMs ?? SERVER_DEFAULTS.sessionCacheMs,
      filesDir: options.filesDir,
      customerServiceUrl: options.customerServiceUrl ?? null,
      benefitPepper: options.benefitPepper ?? SERVER_DEFAULTS.benefitPepper,
    },
  })
  const operator = createConsole(services)
  app.decorate('services', services)
  app.decorate('console', operator.services)
  const jobs = new JobScheduler(options.database.db, services.ctx.clock, app.log, [
    ...jobDefinitions(options.database.db, services),
    ...operator.jobs,
  ])
  app.decorate('jobs', jobs)

  await app.register(errorHandling)
  await app.register(securityHeaders, {
    h5Dist: options.h5Dist,
    ownDocumentPolicy: consoleDocumentPolicy,
  })
  await app.register(textInput)
  await app.register(emptyBody)
  // API responses and anything else not precompressed, for clients that accept it
  await app.register(fastifyCompress, COMPRESSION)
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMITS : options.rateLimit
  if (rateLimit) {
    await app.register(fastifyRateLimit, {
      global: true,
      max: rateLimit.globalPerMinute,
      timeWindow: '1 minute',
    })
  }
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: '云手机 API',
        version: APP_VERSION,
        description: 'All business responses are {code,msg,data,ts}.',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'token' },
          userId: { type: 'apiKey', in: 'header', name: 'userId' },
        },
      },
    },
    // each operation lists the SPEC 8 codes it can answer (contract/route-codes.ts)
    transformObject: (documents) =>
      'openapiObject' in documents
        ? withResultCodes(documents.openapiObject, API_PREFIX)
        : documents.swaggerObject,
  })
  const production = options.production ?? false
  if (options.apiDocs ?? !production) {
    await app.register(fastifySwaggerUi, { routePrefix: '/docs' })
  }
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 },
  })

  fs.mkdirSync(options.filesDir, { recursive: true })
  await app.register(fastifyStatic, {
    root: options.filesDir,
    prefix: '/files/',
    index: false,
    list: false,
  })

  await app.register(
    async (api) => {
      addAuthHook(api)
      await api.register(apiRoutes, {
        sensitivePerMinute: rateLimit ? rateLimit.sensitivePerMinute : null,
        sandboxRoutes: !production,
      })
    },
    { prefix: API_PREFIX },
  )
  // the operator console: its API (own prefix, cookie and hook, never the user API's) and its pages
  await app.register(operatorConsole, {
    secureCookie: production,
    signInLimits: rateLimit
      ? (rateLimit.operatorSignIn ?? {
          perIpPerMinute: SERVER_DEFAULTS.operatorSignInPerIpPerMinute,
          perNameAndIpPer15Minutes: SERVER_DEFAULTS.operatorSignInPerNameAndIpPer15Minutes,
        })
      : null,
    adminDist: options.adminDist ?? null,
  })

  const h5Dist = options.h5Dist && h5IndexExists(options.h5Dist) ? options.h5Dist : null
  // 创建云机's document is made for each request, with the live catalogue in it
  const createPage =
    h5Dist &&
    levelGoodsDocument(
      h5Dist,
      () => services.goodsList.listLevelsJson({}),
      () => clock.now().getTime(),
    )
  const livePages: LivePages = new Map(createPage ? [[CREATE_PAGE, createPage]] : [])
  if (h5Dist) await registerH5(app, h5Dist, livePages)
  app.setNotFoundHandler((request, reply) => {
    if (h5Dist && isSpaNavigation(request)) return sendSpaIndex(request, reply, h5Dist, livePages)
    return sendEnvelope(reply, 404, 404, 'Not Found')
  })

  if (options.startJobs) {
    app.addHook('onReady', async () => {
      await jobs.ensureRecurring()
      jobs.start()
    })
  }
  app.addHook('onClose', async () => {
    await jobs.stop()
  })
  return app
}

export type App = Awaited<ReturnType<typeof buildApp>>
