/**
 * Where each page-opening action of a phone leads. Some pages come from other parts of the app
 * (renewal, configuration changes, data center): their action shows only once their route exists.
 */
import { routeIfPresent, type RouteName } from '@/constants/routes'
import type { DeviceAction } from '@/domain/device-permissions'

export const ACTION_ROUTES: Partial<Record<DeviceAction, string>> = {
  enter: 'webInstance',
  renew: 'renew',
  upOrDownConfig: 'upOrDownConfig',
  videoChange: 'videoChangeOpType',
  changeZone: 'changeZone',
  replace: 'replaceDevice',
  systemUpdate: 'upgradeDevice',
  selectModel: 'selectDevice',
  moveGroup: 'moveGroup',
  dataCenter: 'dataCenter',
  empower: 'empower',
  transfer: 'deviceTransfer',
}

/** Pages that take a list of phones (`deviceIds=1,2,3`) rather than one `deviceId`. */
const MULTI_DEVICE_ACTIONS: DeviceAction[] = ['renew', 'moveGroup', 'empower', 'transfer']

/** The route an action opens, or undefined when it is not a page action or its page is missing. */
export const actionRoute = (action: DeviceAction): RouteName | undefined =>
  routeIfPresent(ACTION_ROUTES[action])

/** Page actions whose page does not exist yet are left out. */
export const availableActions = (actions: DeviceAction[]) =>
  actions.filter((action) => !(action in ACTION_ROUTES) || actionRoute(action) !== undefined)

/**
 * More phones than this go to the renewal page as "the fleet's selection" (`selection=1`, read from
 * FleetStore) rather than in the address: a studio's 10,000 ids would be a 60 KB URL.
 */
export const URL_DEVICE_IDS_MAX = 100

export function actionQuery(action: DeviceAction, deviceIds: number[]) {
  if (action === 'renew' && deviceIds.length > URL_DEVICE_IDS_MAX) return { selection: '1' }
  return MULTI_DEVICE_ACTIONS.includes(action)
    ? { deviceIds: deviceIds.join(',') }
    : { deviceId: deviceIds[0] }
}
