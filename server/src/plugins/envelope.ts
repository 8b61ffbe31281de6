import { negotiate } from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ApiEnvelope } from '../contract/common'
import { COMPRESSION, inEncoding, type KeptBody } from './compression'

export const OK_MESSAGE = '成功'

/** Wraps a handler's result in the SPEC 8 envelope. */
export function ok<T>(data: T, msg = OK_MESSAGE): ApiEnvelope<T> {
  return { code: 200, msg, data, ts: Date.now() }
}

/**
 * Sends an envelope that bypasses the route's response schema (errors carry data: null, which the
 * success schema may not describe).
 */
export function sendEnvelope(
  reply: FastifyReply,
  httpStatus: number,
  code: number,
  msg: string,
  data: unknown = null,
) {
  const body: ApiEnvelope = { code, msg, data, ts: Date.now() }
  return reply.code(httpStatus).type('application/json; charset=utf-8').send(JSON.stringify(body))
}

const OK_HEAD_TEXT = `{"code":200,"msg":${JSON.stringify(OK_MESSAGE)},"data":`
const OK_HEAD = Buffer.from(OK_HEAD_TEXT)

/**
 * An OK envelope around data that is already JSON, written for this call (a page PostgreSQL wrote:
 * db/page-with-total.ts). Compressed, for a client that asks, by @fastify/compress like any reply.
 */
export function sendOkData(reply: FastifyReply, data: string) {
  return reply
    .type('application/json; charset=utf-8')
    .send(`${OK_HEAD_TEXT}${data},"ts":${Date.now()}}`)
}

/** How old the ts of an envelope sendOkJson keeps may be. */
const KEPT_ENVELOPE_MS = 1000
interface KeptEnvelope extends KeptBody {
  at: number
}
const keptEnvelopes = new WeakMap<Buffer, KeptEnvelope>()

/**
 * An OK envelope around data that is already JSON (a cached serialisation of what the schema
 * describes). Such data is sent many times a second, so the whole envelope, and its brotli or gzip
 * form once a client asks for one, is kept for up to a second, and its ts is up to a second old:
 * compressing the goods list for every call halved its throughput.
 */
export function sendOkJson(request: FastifyRequest, reply: FastifyReply, data: Buffer) {
  const now = Date.now()
  let kept = keptEnvelopes.get(data)
  if (!kept || now - kept.at >= KEPT_ENVELOPE_MS) {
    kept = { at: now, plain: Buffer.concat([OK_HEAD, data, Buffer.from(`,"ts":${now}}`)]) }
    keptEnvelopes.set(data, kept)
  }
  reply.type('application/json; charset=utf-8').header('Vary', 'Accept-Encoding')
  const encoding =
    kept.plain.length < COMPRESSION.threshold
      ? null
      : negotiate(String(request.headers['accept-encoding'] ?? ''), COMPRESSION.encodings)
  if (!encoding) return reply.send(kept.plain)
  return reply.header('Content-Encoding', encoding).send(inEncoding(kept, encoding))
}
