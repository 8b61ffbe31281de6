/**
 * The whole schema, one barrel (drizzle-kit and the Drizzle client read it). Nothing under db/schema-*
 * imports this file: each schema file imports the tables it references from their own file, so the
 * barrel sits above them and there is no import circle.
 */
export * from './schema-users'
export * from './schema-system'
export * from './schema-commerce'
export * from './schema-fleet'
export * from './schema-engagement'
export * from './schema-coupon'
export * from './schema-space'
export * from './schema-wallet'
export * from './schema-transfer'
export * from './schema-sharing'
export * from './schema-activity'
export * from './schema-scan-login'
export * from './schema-benefits'
export * from './schema-files'
export * from './schema-secrets'
export * from './schema-supplier'
export * from './schema-operators'
