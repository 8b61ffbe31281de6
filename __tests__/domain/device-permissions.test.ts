import { DeviceStatus } from '@/domain/device-lifecycle'
import {
  actionInput,
  ACTION_LABELS,
  canDo,
  COMMANDS,
  DEVICE_ACTIONS,
  DEVICE_PERMISSIONS,
  type DeviceAction,
  deviceActions,
  isCommandAction,
  isDevicePermission,
} from '@/domain/device-permissions'

const S = DeviceStatus
const ALL = [...DEVICE_PERMISSIONS]
const COMMAND_ACTIONS: DeviceAction[] = [
  'reboot',
  'clean',
  'deepClean',
  'cleanMem',
  'openUrl',
  'uninstall',
  'refreshCover',
]
const phone = (status: number, over: Partial<Parameters<typeof deviceActions>[0]> = {}) => ({
  status,
  permissions: ALL,
  videoEdition: false,
  ...over,
})

describe('permissions and labels', () => {
  it('knows the four device button permissions', () => {
    expect(DEVICE_PERMISSIONS).toEqual([
      'changeConfig',
      'upOrDownConfig',
      'zoneChangeOpType',
      'videoChangeOpType',
    ])
    expect(isDevicePermission('zoneChangeOpType')).toBe(true)
    expect(isDevicePermission('root')).toBe(false)
  })
  it('labels every action in Chinese', () => {
    expect(DEVICE_ACTIONS.map((a) => ACTION_LABELS[a])).toEqual([
      '进入',
      '重启',
      '清理',
      '深度清理',
      '清理内存',
      '打开网址',
      '卸载应用',
      '刷新画面',
      '重命名',
      '续费',
      '升降配',
      '升级视频定制版',
      '更换地区',
      '更换云机',
      '系统更新',
      '选择机型',
      '移动分组',
      '数据中心',
      '授权',
      '转移',
    ])
  })
  it('maps command actions to the SPEC command names', () => {
    expect(COMMANDS).toEqual({
      reboot: 'Reboot',
      clean: 'CleanVm',
      deepClean: 'DeepCleanVm',
      cleanMem: 'CleanMem',
      openUrl: 'OpenUrl',
      uninstall: 'Uninstall',
      refreshCover: 'GetVmCover',
    })
    expect(DEVICE_ACTIONS.filter(isCommandAction)).toEqual(COMMAND_ACTIONS)
  })
})

describe('deviceActions by status (all permissions)', () => {
  it('a running phone offers everything', () => {
    expect(deviceActions(phone(S.running))).toEqual([...DEVICE_ACTIONS])
  })
  it('an expired phone: rename, renew, move group, data center', () => {
    expect(deviceActions(phone(S.expired))).toEqual(['rename', 'renew', 'moveGroup', 'dataCenter'])
  })
  it('a rebooting phone: rename, renew, move group', () => {
    expect(deviceActions(phone(S.rebooting))).toEqual(['rename', 'renew', 'moveGroup'])
  })
  it('a phone being created: rename and move group only', () => {
    expect(deviceActions(phone(S.creating))).toEqual(['rename', 'moveGroup'])
  })
  it('a failed phone can be replaced', () => {
    expect(deviceActions(phone(S.failed))).toEqual(['rename', 'replace', 'moveGroup'])
  })
  it('a released phone offers nothing', () => {
    expect(deviceActions(phone(S.released))).toEqual([])
  })
})

describe('deviceActions by permission', () => {
  it('with no permissions, the permission-gated actions disappear', () => {
    const actions = deviceActions(phone(S.running, { permissions: [] }))
    for (const a of ['upOrDownConfig', 'videoChange', 'changeZone', 'selectModel'] as const) {
      expect(actions).not.toContain(a)
    }
    expect(actions).toContain('systemUpdate')
    expect(actions).toContain('replace')
  })
  it.each([
    ['upOrDownConfig', 'upOrDownConfig'],
    ['videoChangeOpType', 'videoChange'],
    ['zoneChangeOpType', 'changeZone'],
    ['changeConfig', 'selectModel'],
  ] as const)('permission %s enables %s on a running phone only', (permission, action) => {
    expect(canDo(phone(S.running, { permissions: [permission] }), action)).toBe(true)
    expect(canDo(phone(S.expired, { permissions: [permission] }), action)).toBe(false)
    const others = ALL.filter((p) => p !== permission)
    expect(canDo(phone(S.running, { permissions: others }), action)).toBe(false)
  })
  it('a phone already on the video edition does not offer the upgrade again', () => {
    expect(canDo(phone(S.running, { videoEdition: true }), 'videoChange')).toBe(false)
  })
})

describe('a phone authorised by someone else (owned: false)', () => {
  it('can be entered and commanded, but not bought for or changed', () => {
    expect(deviceActions(phone(S.running, { owned: false }))).toEqual(['enter', ...COMMAND_ACTIONS])
    expect(deviceActions(phone(S.expired, { owned: false }))).toEqual([])
  })
})

describe('actionInput: a phone from the list, by its grant', () => {
  const base = { status: S.running, permissions: [], videoEdition: false }
  it('my own phone offers 授权 and 转移', () => {
    const actions = deviceActions(actionInput({ ...base, grant: null }))
    expect(actions).toEqual(expect.arrayContaining(['empower', 'transfer', 'renew']))
  })
  it('authorised to control: enter and commands, nothing of the owner’s', () => {
    const actions = deviceActions(actionInput({ ...base, grant: { permission: 2 } }))
    expect(actions).toEqual(['enter', ...COMMAND_ACTIONS])
  })
  it('authorised to view only: 进入 (the screen without controls) and nothing else', () => {
    expect(deviceActions(actionInput({ ...base, grant: { permission: 1 } }))).toEqual(['enter'])
    const expired = { ...base, status: S.expired, grant: { permission: 1 } }
    expect(deviceActions(actionInput(expired))).toEqual([])
  })
})
