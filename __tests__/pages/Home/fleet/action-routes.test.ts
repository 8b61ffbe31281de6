import { routeIfPresent } from '@/constants/routes'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { actionQuery, actionRoute, availableActions } from '@/pages/Home/fleet/action-routes'

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

  it('reads deviceIds=1,2,3 and drops anything that is not a positive id', () => {
    expect(parseDeviceIds('1, 2,2,x,-4,0,3.5,7')).toEqual([1, 2, 7])
    expect(parseDeviceIds(undefined)).toEqual([])
  })
})
