import type { FastifyReply } from 'fastify'
import type { ApiEnvelope } from '../contract/common'

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

const OK_HEAD = Buffer.from(`{"code":200,"msg":${JSON.stringify(OK_MESSAGE)},"data":`)

/** An OK envelope around data that is already JSON (a cached serialisation of what the schema describes). */
export function sendOkJson(reply: FastifyReply, data: Buffer) {
  const tail = Buffer.from(`,"ts":${Date.now()}}`)
  return reply
    .type('application/json; charset=utf-8')
    .send(Buffer.concat([OK_HEAD, data, tail], OK_HEAD.length + data.length + tail.length))
}
