/** What the sandbox supplier offers and what it says: its models, images, apps and messages. */
import { DeviceCommand } from '#domain/enums'
import type { DeviceModel } from '../supplier-adapter'

export const SANDBOX_MODELS: DeviceModel[] = [
  { modelId: 'xiaomi-13', name: '小米13', brand: '小米' },
  { modelId: 'huawei-mate50', name: '华为Mate50', brand: '华为' },
  { modelId: 'oppo-findx6', name: 'OPPO Find X6', brand: 'OPPO' },
  { modelId: 'vivo-x90', name: 'vivo X90', brand: 'vivo' },
  { modelId: 'samsung-s23', name: '三星S23', brand: '三星' },
]

/** Image versions the sandbox knows, oldest first; new instances start on the one before the latest. */
const SANDBOX_IMAGE_VERSIONS = ['10.0.2', '10.0.3'] as const
export const LATEST_IMAGE = SANDBOX_IMAGE_VERSIONS[SANDBOX_IMAGE_VERSIONS.length - 1]
export const INITIAL_IMAGE = SANDBOX_IMAGE_VERSIONS[0]

/** Apps a fresh instance comes with (package names, shown on the screen and uninstallable). */
export const DEFAULT_APPS = [
  'com.tencent.mm',
  'com.ss.android.ugc.aweme',
  'com.taobao.taobao',
  'com.eg.android.AlipayGphone',
  'com.xingin.xhs',
  'com.sina.weibo',
]

/** A name with this marker makes create and replace fail (for trying the failure path by hand). */
export const FAIL_MARKER = '#fail'

/** What a command that went through answers. */
export const COMMAND_DONE: Record<string, string> = {
  [DeviceCommand.CleanVm]: '清理完成',
  [DeviceCommand.DeepCleanVm]: '深度清理完成',
  [DeviceCommand.CleanMem]: '内存已释放',
  [DeviceCommand.OpenUrl]: '已打开网址',
  [DeviceCommand.GetVmCover]: '画面已刷新',
}

/** Why a create that failed failed. */
export const START_FAILURE = '云手机启动失败，资源分配异常'

export const BACKUP_FAILURE = {
  backup: '备份失败，云手机数据读取异常',
  restore: '恢复失败，云手机数据写入异常',
} as const
