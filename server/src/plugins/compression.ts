import zlib from 'node:zlib'

/**
 * How the server compresses what it sends (for clients that accept it): brotli at quality 4 — the
 * goods list's 44 KB of JSON are 2.2 KB in 0.2 ms; quality 11, brotli's default, saves another 0.5 KB
 * for 60 ms of CPU — else gzip; nothing under 1 KiB. Responses up to 64 KB (every API response) are
 * compressed in one call: @fastify/compress's default on 2 cores is 8 KB, above which it opens a
 * compression stream per response, and that halved the device list's throughput (12 KB a page). A
 * 256 KB brotli window (LGWIN 18) instead of 4 MB: each call sets one up, and our payloads are smaller.
 */
export const COMPRESSION = {
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  threshold: 1024,
  syncThreshold: 64 * 1024,
  brotliOptions: {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
  },
}

/** A body sent many times, with its brotli and gzip forms once a client has asked for them. */
export interface KeptBody {
  plain: Buffer
  br?: Buffer
  gzip?: Buffer
}

/** `body` in `encoding`: compressed the first time it is asked for, then kept with it. */
export function inEncoding(body: KeptBody, encoding: 'br' | 'gzip' | null): Buffer {
  if (encoding === null) return body.plain
  return (body[encoding] ??=
    encoding === 'br'
      ? zlib.brotliCompressSync(body.plain, COMPRESSION.brotliOptions)
      : zlib.gzipSync(body.plain))
}
