import { Type, type Static } from '@sinclair/typebox'

export const AppId = Type.Integer({ minimum: 1 })

/** An app of the library (services/apps/app-library.ts). */
export const AppItem = Type.Object({
  appId: Type.Integer(),
  name: Type.String(),
  packageName: Type.String(),
  versionName: Type.String(),
  versionCode: Type.Integer(),
  sizeBytes: Type.Integer(),
  /** The launcher icon read from the APK (/files/app-icons/…), null when it had none we could read. */
  iconUrl: Type.Union([Type.String(), Type.Null()]),
  /** 'mine': the user's own upload; 'catalogue': kept by the operators in the console. */
  source: Type.Union([Type.Literal('mine'), Type.Literal('catalogue')]),
  /** A catalogue entry the operators hid (only the console sees those). */
  hidden: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
})
export type AppItem = Static<typeof AppItem>

export const AppList = Type.Object({
  /** The user's uploads, newest first. */
  mine: Type.Array(AppItem),
  /** The operators' catalogue, by name. */
  catalogue: Type.Array(AppItem),
})
export type AppList = Static<typeof AppList>

export const DeleteAppBody = Type.Object({ appId: AppId })
export type DeleteAppBody = Static<typeof DeleteAppBody>
