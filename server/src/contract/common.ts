import { Type, type Static, type TSchema } from '@sinclair/typebox'

/** SPEC 8: every API body. `data` is null on errors. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String(),
    data: Type.Union([data, Type.Null()]),
    ts: Type.Integer({ description: 'server time, ms since epoch' }),
  })

export const EmptyData = Type.Null()

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
})
export type PageQuery = Static<typeof PageQuery>

export const Paged = <T extends TSchema>(record: T) =>
  Type.Object({
    records: Type.Array(record),
    page: Type.Integer(),
    totalPage: Type.Integer(),
    total: Type.Integer(),
  })

export interface PagedData<T> {
  records: T[]
  page: number
  totalPage: number
  total: number
}

export const ZeroOne = Type.Union([Type.Literal(0), Type.Literal(1)])

export const ApiEnvelope = Type.Object({
  code: Type.Integer(),
  msg: Type.String(),
  data: Type.Any(),
  ts: Type.Integer(),
})
export type ApiEnvelope<T = unknown> = { code: number; msg: string; data: T; ts: number }
