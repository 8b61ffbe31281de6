import fs from 'node:fs'
import fastifyCompress from '@fastify/compress'
import fastifyMultipart from '@fastify/multipart'
import fastifyRateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import fastifySwagger from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import fp from 'fastify-plugin'
import { APP_VERSION } from '#constants/limits'
import type { RateLimits } from '../config'
import { withResultCodes } from '../contract/route-codes'
import { MAX_UPLOAD_BYTES } from '../domain/files'
import { COMPRESSION } from './compression'
import { API_PREFIX } from './errors'
import securityHeaders, { type SecurityHeadersOptions } from './security-headers'

export interface ExternalPluginsOptions extends SecurityHeadersOptions {
  /** null: no rate limit (RATE_LIMIT_PER_MINUTE=0). */
  rateLimits: RateLimits | null
}

/**
 * The third-party plugins every route runs under: security headers (helmet), compression, the global
 * rate limit, the OpenAPI document and multipart uploads. They add hooks and parsers, no route, so the
 * app's own plugins may come after them.
 */
export const externalPlugins = fp(async function externalPlugins(
  app,
  options: ExternalPluginsOptions,
) {
  const { rateLimits, ...headers } = options
  await app.register(securityHeaders, headers)
  // API responses and anything else not precompressed, for clients that accept it
  await app.register(fastifyCompress, COMPRESSION)
  if (rateLimits) {
    await app.register(fastifyRateLimit, {
      global: true,
      max: rateLimits.globalPerMinute,
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
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 },
  })
})

export interface ExternalRoutesOptions {
  /** Swagger UI at /docs. */
  apiDocs: boolean
  /** The uploaded files, served at /files/. */
  filesDir: string
}

/**
 * The third-party plugins that serve routes (Swagger UI, the uploaded files): registered after the
 * app's own plugins, so their error handler and hooks answer these routes too.
 */
export const externalRoutes = fp(async function externalRoutes(
  app,
  options: ExternalRoutesOptions,
) {
  if (options.apiDocs) await app.register(fastifySwaggerUi, { routePrefix: '/docs' })
  fs.mkdirSync(options.filesDir, { recursive: true })
  await app.register(fastifyStatic, {
    root: options.filesDir,
    prefix: '/files/',
    index: false,
    list: false,
  })
})
