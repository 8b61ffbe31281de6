/**
 * The whole schema, one barrel (drizzle-kit and the Drizzle client read it). Nothing under db/schema-*
 * imports this file: each schema file imports the tables it references from their own file, so the
 * barrel sits above them and there is no import circle.
 */
export * from './users'
export * from './system'
export * from './commerce'
export * from './devices'
export * from './engagement'
export * from './coupon'
export * from './space'
export * from './wallet'
export * from './transfer'
export * from './sharing'
export * from './activity'
export * from './scan-login'
export * from './benefits'
export * from './files'
export * from './secrets'
export * from './supplier'
export * from './operators'
export * from './auto-renew'
export * from './apps'
