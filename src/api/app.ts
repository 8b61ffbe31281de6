/** 应用管理 calls (docs/apps.md): the app library, uploads and batch installs. */
import type { AppItem, AppList, InstalledApp, InstallProgress, InstallResult } from '@/types/api'
import { client } from '@/runtime/request'

export const listApps = async () => (await client.get<AppList>('/app/list')).data

/** Uploads a local APK (a path the file chooser gave) → the app as the server read it. */
export const uploadApk = async (filePath: string) =>
  (await client.upload<AppItem>('/app/upload', filePath, { loading: '正在上传安装包' })).data

export const deleteApp = async (appId: number) =>
  (await client.post<null>('/app/delete', { appId })).data

/** Which phones a batch install takes: all of them (全选), one group's, or the chosen ones. */
export type InstallTarget = { all: true } | { groupId: number } | { deviceIds: number[] }

/** One app onto the target's phones, as one batch. */
export const installApp = async (appId: number, target: InstallTarget) =>
  (await client.post<InstallProgress>('/app/install', { appId, ...target })).data

/** quiet: no loading overlay (the page reads it every few seconds while the batch runs) */
export const getInstallProgress = async (installId: number) =>
  (await client.get<InstallProgress>('/app/install/progress', { installId }, { loading: false }))
    .data

/** The newest batch while it runs and for an hour after it ended, else null. */
export const getLatestInstall = async () =>
  (await client.get<InstallProgress | null>('/app/install/latest', undefined, { loading: false }))
    .data

export const listInstallResults = (installId: number, page: number, rows?: number) =>
  client.fetchPage<InstallResult>({
    url: '/app/install/results',
    page,
    rows,
    params: { installId },
    loading: false,
  })

/** The apps on one phone now (its owner's, or a grantee's with control). */
export const listInstalled = async (deviceId: number) =>
  (await client.get<InstalledApp[]>('/app/installed', { deviceId })).data ?? []

/** Opens an installed app on the phone's screen (LaunchApp). */
export const launchApp = async (deviceId: number, packageName: string) =>
  (await client.post<null>('/app/launch', { deviceId, packageName })).data
