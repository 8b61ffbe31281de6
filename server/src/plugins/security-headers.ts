import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import fastifyHelmet from '@fastify/helmet'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The page is shown in an iframe of our own H5 app (the sandbox control page). */
    framedBySelf?: boolean
    /** Origins the page's scripts connect to besides ours (ACEP's live stream, acep/stream.ts). */
    connectSrc?: readonly string[]
  }
}

/** An uploaded file can be anything a user sent: it never runs script, never loads anything. */
export const FILES_POLICY = "default-src 'none'; sandbox; frame-ancestors 'none'"
/** JSON, scripts, images: nothing to run or load when opened as a document. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'"

/**
 * For the few answers Fastify sends before any hook runs (a URL it cannot route, errors.ts): what
 * helmet and the hook below give an API answer.
 */
export const BARE_ANSWER_HEADERS = {
  'content-security-policy': API_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
}

/**
 * 'sha256-…' sources for the inline <script> elements of an HTML document that run: a data element
 * (`type="application/json"`, the control page's) runs nothing and needs no source.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script\s*>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '') || match[2] === '') continue
    if (/\stype\s*=\s*["']?application\/json/i.test(match[1] ?? '')) continue
    hashes.add(`'sha256-${crypto.createHash('sha256').update(match[2], 'utf8').digest('base64')}'`)
  }
  return [...hashes]
}

/** Every HTML document of the H5 build (index.html, the prerendered pages and template). */
function buildDocuments(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return buildDocuments(full)
    return entry.name.endsWith('.html') ? [full] : []
  })
}

/**
 * The policy of a document we send. Scripts: our own files and the inline scripts we wrote, by hash
 * (an injected <script> or on* attribute never runs). Styles: 'unsafe-inline', because the H5
 * documents carry the page prerendered with style attributes (Taro and NutUI set them) and the
 * sandbox pages style their buttons inline; CSS cannot run script, and a hash cannot allow an
 * attribute. Images: https too (WeChat avatars). Frames: https too, for a real supplier's control
 * page, whose host the build does not know. Forms post to us only; nobody frames us but ourselves
 * where a page says so.
 */
export function documentPolicy(
  scriptHashes: readonly string[],
  framedBySelf = false,
  connectSrc: readonly string[] = [],
): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self' ${connectSrc.join(' ')}`.trim(),
    "frame-src 'self' https:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${framedBySelf ? "'self'" : "'none'"}`,
  ].join('; ')
}

export interface SecurityHeadersOptions {
  /** The H5 build the app serves (its documents' inline scripts are allowed by hash). */
  h5Dist?: string | null
  /** A module's own policy for the documents it serves (the console's), or null for the rules below. */
  ownDocumentPolicy?: (url: string) => string | null
}

/**
 * Security headers on every answer: helmet's (nosniff, X-Frame-Options, Referrer-Policy, COOP,
 * CORP…) and a Content-Security-Policy chosen by what the answer is. A document we render (the
 * sandbox pages, /docs) gets its own inline scripts' hashes; an H5 document (a file or a buffer made
 * from the build's template) those of the build, computed once at start; /files the sandbox policy;
 * anything else the API policy.
 */
export default fp(async function securityHeaders(
  app: FastifyInstance,
  options: SecurityHeadersOptions,
) {
  await app.register(fastifyHelmet, {
    // set below per answer
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    // tokens ride in our URLs (pay links, the control page): no other site sees them as a referrer
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS belongs to the TLS terminator, which knows the domain and its subdomains
    strictTransportSecurity: false,
  })

  const h5Hashes = [
    ...new Set(
      buildDocuments(options.h5Dist ?? '').flatMap((file) =>
        inlineScriptHashes(fs.readFileSync(file, 'utf8')),
      ),
    ),
  ]

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/files/')) {
      reply.header('content-security-policy', FILES_POLICY)
      return payload
    }
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('content-security-policy', API_POLICY)
      return payload
    }
    const ownPolicy = options.ownDocumentPolicy?.(request.url) ?? null
    if (ownPolicy !== null) {
      reply.header('content-security-policy', ownPolicy)
      return payload
    }
    const framedBySelf = request.routeOptions.config?.framedBySelf === true
    if (framedBySelf) reply.header('x-frame-options', 'SAMEORIGIN')
    if (typeof payload === 'string') {
      reply.header(
        'content-security-policy',
        documentPolicy(
          inlineScriptHashes(payload),
          framedBySelf,
          request.routeOptions.config?.connectSrc,
        ),
      )
      return payload
    }
    // The H5 app uploads a file the user chose (an APK, an avatar) through Taro's uploadFile, which
    // reads the file's blob: URL with an XHR before posting it: blob: URLs are the page's own objects.
    reply.header('content-security-policy', documentPolicy(h5Hashes, false, ['blob:']))
    // WeChat Pay's H5 checkout checks that the Referer is our domain; cross-origin it gets the origin
    // only, never a page URL with its token
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    return payload
  })
})
