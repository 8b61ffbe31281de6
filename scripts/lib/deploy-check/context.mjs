/** The check's fixed values, and `state`: what one step leaves for the next. */
import path from 'node:path'

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..')
export const PG_BIN = process.env.PG_BIN
export const API = '/vmcloud/api'
export const START_TIMEOUT_MS = 120_000
const started = Date.now()
export const seconds = () => ((Date.now() - started) / 1000).toFixed(1)
/** CI (.ci/run exports CI=true) must check section 6's nginx block: there, no nginx is a failure. */
export const IN_CI = Boolean(process.env.CI) && !/^(false|0)$/i.test(process.env.CI)

export const MOBILE = '13912345678'
export const CLIENT_IP = '203.0.113.7'
export const PUBLIC_HOST = 'cloudphone.example.com'
export const PUBLIC_BASE_URL = `https://${PUBLIC_HOST}`
export const PUBLIC_API_BASE = `${PUBLIC_BASE_URL}/vmcloud/api`
export const FORGED_IP = '198.51.100.9'

/**
 * Filled in as the steps go: nginx, cluster, ports, proxy, fakes, production (the servers' environment),
 * servers, session.
 */
export const state = {}
