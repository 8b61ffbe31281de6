import Taro from '@tarojs/taro'
import { H5_PERMISSIONS, WEAPP_SCOPES, weappState, type PermissionState } from './permission-items'

export type PermissionStates = Record<string, PermissionState>

/** Mini-program: the scopes the user has answered, from Taro.getSetting. */
export async function readWeappPermissions(): Promise<PermissionStates> {
  const { authSetting } = await Taro.getSetting()
  const setting = authSetting as Record<string, boolean | undefined>
  return Object.fromEntries(WEAPP_SCOPES.map((item) => [item.key, weappState(setting[item.key])]))
}

/** Browser: the Permissions API where it exists; a name the browser does not know is 'unsupported'. */
export async function readBrowserPermissions(): Promise<PermissionStates> {
  const api = typeof navigator !== 'undefined' ? navigator.permissions : undefined
  const entries = await Promise.all(
    H5_PERMISSIONS.map(async (item): Promise<[string, PermissionState]> => {
      if (!api) return [item.key, 'unsupported']
      try {
        const status = await api.query({ name: item.key as PermissionName })
        return [item.key, status.state as PermissionState]
      } catch {
        return [item.key, 'unsupported']
      }
    }),
  )
  return Object.fromEntries(entries)
}
