/**
 * Request and response shapes of the API, defined once by the server contract (TypeBox schemas in
 * server/src/contract). Type-only: nothing of the server enters the client bundle.
 */
export type * from '../../server/src/contract'
