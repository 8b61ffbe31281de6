import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox'

/**
 * `schema` or null, as OpenAPI 3.0's `nullable`. The response serializer writes such a value directly;
 * for `anyOf: [schema, null]` it first validated the value against each branch (for an envelope's data,
 * the whole payload), which cost more than writing it. Schemas without a `type` keep the anyOf.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const options = schema.anyOf as { const?: unknown; type?: unknown }[] | undefined
  if (schema.type === 'null') return schema as unknown as TUnsafe<null>
  if (typeof schema.type === 'string') return Type.Unsafe({ ...schema, nullable: true })
  const literalType = options?.[0]?.type
  if (
    typeof literalType === 'string' &&
    options!.every((option) => 'const' in option && option.type === literalType)
  ) {
    const { anyOf: _anyOf, ...rest } = schema
    return Type.Unsafe({
      ...rest,
      type: literalType,
      enum: [...options!.map((option) => option.const), null],
      nullable: true,
    })
  }
  return Type.Unsafe(Type.Union([schema, Type.Null()]))
}

/** SPEC 8: every API body. `data` is null on errors. */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String(),
    data: Nullable(data),
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
