/**
 * The app library's rules (应用管理), shared by the server and the pages: how large an APK may be, how
 * many a user may upload, why an upload is refused, and what a phone's result in a batch install says.
 */

const MB = 1024 * 1024

/** The largest APK taken in: the upload is read into memory to be checked, so it stays bounded. */
export const APK_MAX_BYTES = 100 * MB

/** What one user may upload in any 24 hours: a studio's few apps a day, never a disk filled by a script. */
export const APK_QUOTA = { files: 10, bytes: 500 * MB, windowMs: 86_400_000 } as const

/**
 * What an APK's inside may be. Real manifests are a few KB to a few hundred; resource tables a few MB
 * (a large game's up to about 20); launcher icons under 100 KB. The declared sizes are checked before
 * anything is inflated, and inflating stops at the declared size.
 */
export const APK_LIMITS = {
  entries: 65_535,
  manifestBytes: 1 * MB,
  resourcesBytes: 32 * MB,
  iconBytes: 512 * 1024,
  /** All entries' declared sizes together: more than this is a zip bomb, whatever the ratio. */
  totalUncompressedBytes: 2048 * MB,
  /** An entry inflating more than this many times its stored size (real APKs stay under 30). */
  maxRatio: 200,
  /** How deep the manifest's elements may nest (real ones: under 10). */
  manifestDepth: 64,
} as const

/** Why an upload is not taken as an APK, each with the words the page shows. */
export const APK_REFUSALS = {
  empty: '请选择要上传的安装包',
  tooLarge: `安装包不能超过${APK_MAX_BYTES / MB}MB`,
  notZip: '不是有效的安装包，请上传 APK 文件',
  noManifest: '安装包缺少 AndroidManifest.xml，请上传 APK 文件',
  badEntryName: '安装包内含非法文件名，无法上传',
  zipBomb: '安装包解压后过大，无法上传',
  manifestTooLarge: '安装包清单过大，无法上传',
  unreadable: '无法读取安装包的名称、包名或版本，请检查后重试',
  quotaFiles: '今日上传安装包次数已达上限，请明天再试',
  quotaBytes: `今日上传安装包已超过${APK_QUOTA.bytes / MB}MB，请明天再试`,
} as const
export type ApkRefusal = keyof typeof APK_REFUSALS

/** An Android package name (Java identifiers joined by dots, at least two parts). */
export const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/

/** A phone's result in a batch install. */
export type InstallStatus = 'pending' | 'installing' | 'installed' | 'failed' | 'skipped'

/** Why a phone is skipped before anything is sent to its supplier. */
export const INSTALL_SKIPS = {
  notYours: '不是你的云手机',
  viewOnly: '仅有查看权限',
  expired: '云手机已到期',
  offline: '云手机未开机',
} as const
export type InstallSkip = keyof typeof INSTALL_SKIPS

export const INSTALL_STATUS_TEXT: Record<InstallStatus, string> = {
  pending: '等待安装',
  installing: '安装中',
  installed: '已安装',
  failed: '安装失败',
  skipped: '已跳过',
}

/** The most phones one batch install may name (全选 of a studio's fleet). */
export const INSTALL_MAX_DEVICES = 10_000

/** 安装中 n/N while results are outstanding, then what the batch came to. */
export function installProgressText(progress: {
  total: number
  done: number
  installed: number
  failed: number
  skipped: number
}) {
  if (progress.done < progress.total) return `安装中 ${progress.done}/${progress.total}`
  const parts = [`成功 ${progress.installed}`]
  if (progress.failed > 0) parts.push(`失败 ${progress.failed}`)
  if (progress.skipped > 0) parts.push(`跳过 ${progress.skipped}`)
  return `安装完成：${parts.join('，')}`
}
