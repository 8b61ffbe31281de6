import { routeIfPresent, url } from '@/constants/routes'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { actionQuery, actionRoute, availableActions } from '@/pages/Home/parts/fleet/action-routes'

describe('action routes', () => {
  it('opens the page of an action that has one', () => {
    expect(actionRoute('enter')).toBe('webInstance')
    expect(actionRoute('changeZone')).toBe('changeZone')
    expect(actionRoute('reboot')).toBeUndefined()
  })

  it('leaves out page actions whose page does not exist, keeps commands', () => {
    expect(routeIfPresent('noSuchPage')).toBeUndefined()
    // 数据中心 has its page (Space/DataCenter) now, so it is kept and opens with the phone's id.
    expect(availableActions(['reboot', 'dataCenter', 'moveGroup'])).toEqual([
      'reboot',
      'dataCenter',
      'moveGroup',
    ])
    expect(actionRoute('dataCenter')).toBe('dataCenter')
    expect(actionQuery('dataCenter', [7])).toEqual({ deviceId: 7 })
  })

  it('passes a list of ids to renew and move, one id elsewhere', () => {
    expect(actionQuery('moveGroup', [3, 1])).toEqual({ deviceIds: '3,1' })
    expect(actionQuery('renew', [2])).toEqual({ deviceIds: '2' })
    expect(actionQuery('changeZone', [2])).toEqual({ deviceId: 2 })
  })

  it('the phones of a batch action reach its page whole: as the mini-program (still encoded) or H5 hands them over', () => {
    for (const action of ['renew', 'moveGroup', 'empower', 'transfer'] as const) {
      const link = url(actionRoute(action)!, actionQuery(action, [3, 1]))
      const raw = new URL(link, 'https://x').search.split('deviceIds=')[1]
      expect(raw).toBe('3%2C1')
      expect(parseDeviceIds(raw)).toEqual([3, 1])
      expect(parseDeviceIds(decodeURIComponent(raw))).toEqual([3, 1])
    }
  })
})
