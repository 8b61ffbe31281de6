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

/**
 * One batch install: the app, and the phones by list, by group, or all of the user's (全选). Exactly
 * one of deviceIds, groupId and all.
 */
export const InstallAppBody = Type.Object({
  appId: AppId,
  deviceIds: Type.Optional(Type.Array(Type.Integer(), { maxItems: 10_000 })),
  groupId: Type.Optional(Type.Integer({ minimum: 1 })),
  all: Type.Optional(Type.Boolean()),
})
export type InstallAppBody = Static<typeof InstallAppBody>

export const InstallProgress = Type.Object({
  installId: Type.Integer(),
  appId: Type.Union([Type.Integer(), Type.Null()]),
  appName: Type.String(),
  packageName: Type.String(),
  total: Type.Integer(),
  done: Type.Integer(),
  installed: Type.Integer(),
  failed: Type.Integer(),
  skipped: Type.Integer(),
  finished: Type.Boolean(),
  /** 安装中 n/N while phones are open, then what it came to. */
  text: Type.String(),
})
export type InstallProgress = Static<typeof InstallProgress>

export const InstallQuery = Type.Object({ installId: Type.Integer({ minimum: 1 }) })
export type InstallQuery = Static<typeof InstallQuery>

export const InstallResultsQuery = Type.Object({
  installId: Type.Integer({ minimum: 1 }),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
})
export type InstallResultsQuery = Static<typeof InstallResultsQuery>

export const InstallResult = Type.Object({
  deviceId: Type.Integer(),
  deviceName: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('installing'),
    Type.Literal('installed'),
    Type.Literal('failed'),
    Type.Literal('skipped'),
  ]),
  /** Why it failed or was skipped. */
  reason: Type.Union([Type.String(), Type.Null()]),
})
export type InstallResult = Static<typeof InstallResult>

export const InstalledAppsQuery = Type.Object({ deviceId: Type.Integer({ minimum: 1 }) })
export type InstalledAppsQuery = Static<typeof InstalledAppsQuery>

export const InstalledApp = Type.Object({
  packageName: Type.String(),
  name: Type.String(),
  versionName: Type.Union([Type.String(), Type.Null()]),
})
export type InstalledApp = Static<typeof InstalledApp>

export const LaunchAppBody = Type.Object({
  deviceId: Type.Integer({ minimum: 1 }),
  packageName: Type.String({ minLength: 1, maxLength: 255 }),
})
export type LaunchAppBody = Static<typeof LaunchAppBody>
