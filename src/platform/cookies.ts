/** Main-domain cookies for H5 (SPEC 3): pure string helpers, the DOM write lives in index.h5.ts. */

const TWO_PART_SUFFIXES = new Set([
  'com.cn',
  'net.cn',
  'org.cn',
  'gov.cn',
  'edu.cn',
  'ac.cn',
  'com.hk',
  'com.tw',
  'co.uk',
  'co.jp',
  'com.au',
])

const isIp = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(':')

/** 'm.app.example.com' → 'example.com'; undefined on localhost, an IP or a single-label host. */
export function mainDomain(hostname: string): string | undefined {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  if (!host || host === 'localhost' || isIp(host)) return undefined
  const parts = host.split('.')
  if (parts.length < 2) return undefined
  const lastTwo = parts.slice(-2).join('.')
  if (TWO_PART_SUFFIXES.has(lastTwo) && parts.length >= 3) return parts.slice(-3).join('.')
  return lastTwo
}

export function buildCookie(
  name: string,
  value: string,
  options: { domain?: string; maxAgeSeconds?: number } = {},
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'path=/']
  if (options.domain) parts.push(`domain=${options.domain}`)
  if (options.maxAgeSeconds !== undefined) parts.push(`max-age=${options.maxAgeSeconds}`)
  return parts.join('; ')
}
