import { loadConfig, type ServerConfig } from '../../src/config'

/**
 * The configuration a test app runs with: the loader's own defaults (from an empty environment, so a
 * developer's variables never leak in), with no H5 or console build, no rate limit and no log, and
 * the test's `settings` over them. `production: true` loads it as NODE_ENV=production would (no /docs
 * unless `apiDocs`).
 */
export function testConfig(
  settings: Partial<ServerConfig> & Pick<ServerConfig, 'filesDir'>,
): ServerConfig {
  const loaded = loadConfig({ NODE_ENV: settings.production ? 'production' : 'test' })
  return {
    ...loaded,
    h5Dist: null,
    adminDist: null,
    rateLimitPerMinute: 0,
    logLevel: 'silent',
    ...settings,
  }
}

/** The sandbox supplier making phones at once and never failing. */
export const INSTANT_SUPPLIER = {
  sandboxSupplierDelayMs: 0,
  sandboxSupplierFailureRate: 0,
} satisfies Partial<ServerConfig>
