import {
  AjvCompiler,
  type BuildCompilerFromPool,
  type RouteDefinition,
} from '@fastify/ajv-compiler'
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'

/**
 * What Fastify calls a validator compiler with (the package's typings declare Ajv's own compile
 * signature instead).
 */
type RouteCompiler = (route: RouteDefinition) => unknown

/** Ajv's options for every request part; only `coerceTypes` differs between them. */
const AJV_OPTIONS = {
  removeAdditional: true,
  useDefaults: true,
  allErrors: false,
} as const

/**
 * One Ajv pool for every app this process builds: Ajv keeps what it compiled by schema, and the routes'
 * schemas are the same objects in every app, so an app built again (each server test builds its own)
 * reuses the validators instead of compiling them again (about a third of building an app).
 */
const pool = AjvCompiler()
const buildValidator: BuildCompilerFromPool = (externalSchemas, options = {}) => {
  const ajvOptions = { ...options, mode: undefined } // plain Ajv: JSON Schema, not JTD
  const coercing = pool(externalSchemas, ajvOptions) as unknown as RouteCompiler
  const asSent = pool(externalSchemas, {
    ...ajvOptions,
    customOptions: { ...ajvOptions.customOptions, coerceTypes: false },
  }) as unknown as RouteCompiler
  const compile: RouteCompiler = (route) => (route.httpPart === 'body' ? asSent : coercing)(route)
  return compile as unknown as ReturnType<BuildCompilerFromPool>
}

/**
 * One cache of response serializers for every app this process builds, for the same reason: fast-json-
 * stringify compiles a function per route and status code, about 0.2 s of CPU of the 0.35 s an app took
 * to build. A serializer depends only on its schema and the app's shared schemas and options, so that is
 * the key; Fastify's own compiler (`SerializerSelector`, its default) makes what is not cached yet.
 */
const compileSerializer = SerializerSelector()
type SerializerFactory = ReturnType<typeof compileSerializer>
const serializers = new Map<string, ReturnType<SerializerFactory>>()
const buildSerializer: typeof compileSerializer = (externalSchemas, serializerOptions) => {
  const compile = compileSerializer(externalSchemas, serializerOptions)
  const context = JSON.stringify([externalSchemas, serializerOptions])
  const cached: SerializerFactory = (route) => {
    const key = `${context}\n${JSON.stringify(route.schema)}`
    let serializer = serializers.get(key)
    if (!serializer) {
      serializer = compile(route)
      serializers.set(key, serializer)
    }
    return serializer
  }
  return cached
}
const schemaController = { compilersFactory: { buildValidator, buildSerializer } }

/**
 * Request validation: a query string, path or header arrives as text, so it is coerced to the schema's
 * type ("12" → 12, a repeated key → an array). A JSON body already has its types and is taken as sent:
 * with coercion Ajv turned null into 0, "" or false, so `{"deviceId": null}` (also what
 * JSON.stringify writes for NaN) or a console price edit with a null field passed as 0. Null is valid
 * only where the schema says so (`Nullable(...)`, `Type.Null()`), and "12" or "true" in a body are
 * refused as the wrong type like any other. Same answer as any validation error: 400 naming the field.
 * Responses are written by the cached serializers above.
 */
export function schemaCompilers(): Pick<FastifyServerOptions, 'ajv' | 'schemaController'> {
  return { ajv: { customOptions: { ...AJV_OPTIONS, coerceTypes: 'array' } }, schemaController }
}
