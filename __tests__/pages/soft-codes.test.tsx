/**
 * The error matrix, started from the four pages that dropped SPEC 8's soft codes: the page's
 * call runs through the real service and request layer to a fake transport that answers with the code,
 * and the page must show the SPEC's handling — never a success toast or navigation, never a TypeError.
 * Only the pages' loaders are faked; the call under test is the app's own.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import NewUserGuide from '@/components/NewUserGuide'
import { isPublicPage } from '@/constants/routes'
import { ResultCode } from '@/domain/result-codes'
import SelectChangeZone from '@/pages/Device/selectChangeZone'
import PlayTrial from '@/pages/landing/play-trial/index'
import DataCenter from '@/pages/Space/DataCenter'
import ActivateDevice from '@/pages/user/activateDevice'
import * as activation from '@/api/activation'
import * as deviceService from '@/api/device'
import * as engagement from '@/api/engagement'
import * as goods from '@/api/goods'
import * as space from '@/api/space'
import { resolveApiBase } from '@/runtime/request'
import { STORAGE_KEYS } from '@/runtime/storage-keys'
import { renderPage, setRouteParams, typeInto } from './page-harness'
import { deviceSpace, spaceTask } from './Space/space-fixtures'
import { device } from './Home/fleet-fixtures'

jest.mock('@tarojs/taro', () => {
  const taro = jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro()
  return { ...taro, useShareAppMessage: jest.fn() }
})
jest.mock('@/api/device', () => ({
  ...jest.requireActual<typeof import('@/api/device')>('@/api/device'),
  getDevice: jest.fn(),
}))
jest.mock('@/api/goods', () => ({
  ...jest.requireActual<typeof import('@/api/goods')>('@/api/goods'),
  getZones: jest.fn(),
}))
jest.mock('@/api/activation', () => ({
  ...jest.requireActual<typeof import('@/api/activation')>('@/api/activation'),
  listMyCodes: jest.fn(),
}))
jest.mock('@/api/engagement', () => ({
  ...jest.requireActual<typeof import('@/api/engagement')>('@/api/engagement'),
  getPlayTrialConfig: jest.fn(),
  getNewUserGuideConfig: jest.fn(),
}))
jest.mock('@/api/space', () => ({
  ...jest.requireActual<typeof import('@/api/space')>('@/api/space'),
  getDeviceSpace: jest.fn(),
}))

const SOFT_CODES = [
  ResultCode.CLOUD_OUT_OF_STOCK,
  ResultCode.INSUFFICIENT_ACCOUNT_BALANCE,
  ResultCode.OVER_CLOUD_SPACE,
]
const NAVIGATIONS = ['navigateTo', 'navigateBack', 'redirectTo', 'reLaunch', 'switchTab'] as const

interface Case {
  name: string
  /** the page as the current route, for the 2017 handling */
  route: string
  /** the call under test */
  path: string
  /** the soft code the server answers this call with, and its message (server/src/services) */
  serverCode: number
  serverMsg: string
  /** renders the page and taps what makes the call */
  open(): Promise<void>
  /** what the page shows for a soft refusal with this code and message */
  refusalText?(code: number, msg: string): string
}

const phone7Space = deviceSpace({ backups: [spaceTask({ createdAt: 0, finishedAt: 0 })] })
const trialOffer = {
  enabled: true,
  goodId: 101,
  goodName: '畅享版 4核4G',
  configName: '4核 4G',
  minutes: 120,
  zonePolicy: 'mostStock',
  claimed: false,
  inStock: true,
}

const CASES: Case[] = [
  {
    name: '选择地区 (change zone)',
    route: 'pages/Device/selectChangeZone',
    path: '/device/changeZone',
    serverCode: ResultCode.CLOUD_OUT_OF_STOCK,
    serverMsg: '所选地区库存不足，请选择其他地区',
    async open() {
      setRouteParams({ deviceId: '7' })
      renderPage(<SelectChangeZone />, {})
      fireEvent.click(await screen.findByRole('button', { name: /华南-广州/ }))
    },
  },
  {
    name: '激活码 (activate a code)',
    route: 'pages/user/activateDevice',
    path: '/activation/activate',
    serverCode: ResultCode.CLOUD_OUT_OF_STOCK,
    serverMsg: '「畅享版 4核4G」暂时售罄，请稍后再试或用于续费',
    async open() {
      setRouteParams({})
      renderPage(<ActivateDevice />, { fleet: { pickedDevice: null, statusOf: () => undefined } })
      typeInto(document.body, '激活码', 'ABCDEFGHJKMNPQRS')
      fireEvent.click(screen.getByText('立即激活'))
    },
  },
  {
    name: '试玩落地页 (claim the trial phone)',
    route: 'pages/landing/play-trial/index',
    path: '/newUserGuide/getNewUserReceiveEquipment',
    serverCode: ResultCode.CLOUD_OUT_OF_STOCK,
    serverMsg: '试用云机已领完，请稍后再试',
    async open() {
      renderPage(<PlayTrial />, { session: { isLoggedIn: true } })
      fireEvent.click(await screen.findByText('免费领取试玩云机'))
    },
  },
  {
    name: '新手指引 (claim the trial phone)',
    route: 'pages/Home/index',
    path: '/newUserGuide/getNewUserReceiveEquipment',
    serverCode: ResultCode.CLOUD_OUT_OF_STOCK,
    serverMsg: '试用云机已领完，请稍后再试',
    async open() {
      Taro.clearStorageSync()
      Taro.setStorageSync(STORAGE_KEYS.token, 'token-1')
      renderPage(<NewUserGuide />, {
        session: { isLoggedIn: true, userId: 1, firstLogin: 1 },
        fleet: { reload: jest.fn().mockResolvedValue(undefined) },
      })
      await screen.findByText('欢迎使用云手机')
      fireEvent.click(screen.getByText('下一步'))
      fireEvent.click(screen.getByText('免费领取试用云机'))
    },
  },
  {
    name: '数据中心 (back up now)',
    route: 'pages/Space/DataCenter',
    path: '/space/backup',
    serverCode: ResultCode.OVER_CLOUD_SPACE,
    serverMsg: '云空间容量不足，请删除旧备份或购买空间',
    async open() {
      setRouteParams({ deviceId: '7' })
      renderPage(<DataCenter />, {})
      fireEvent.click(await screen.findByText('立即备份'))
    },
    refusalText: (code, msg) =>
      code === ResultCode.OVER_CLOUD_SPACE ? '云空间容量不足，请先删除不需要的备份后再试' : msg,
  },
]

/** The transport: the call under test gets `answer`, anything else is a test error. */
let answer: { code: number; msg: string }
let requested: string[]

const toasts = () =>
  (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o as Taro.showToast.Option)
const seen = () => [...toasts().map((t) => t.title), document.body.textContent ?? ''].join('\n')

beforeEach(() => {
  jest.clearAllMocks()
  Taro.clearStorageSync()
  Taro.setStorageSync(STORAGE_KEYS.token, 'token-1')
  requested = []
  jest.spyOn(Taro, 'request').mockImplementation(((o: { url: string }) => {
    requested.push(o.url.split('?')[0].replace(resolveApiBase(), ''))
    return Promise.resolve({ statusCode: 200, data: { ...answer, data: null } })
  }) as never)
  for (const fn of ['showToast', 'showLoading', 'hideLoading', 'setClipboardData'] as const)
    jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
  for (const fn of NAVIGATIONS) jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  const api = {
    device: deviceService as jest.Mocked<typeof deviceService>,
    goods: goods as jest.Mocked<typeof goods>,
    activation: activation as jest.Mocked<typeof activation>,
    engagement: engagement as jest.Mocked<typeof engagement>,
    space: space as jest.Mocked<typeof space>,
  }
  api.device.getDevice.mockResolvedValue(
    device({ deviceId: 7, name: '主力机', goodId: 11, zoneId: 1 }),
  )
  api.goods.getZones.mockResolvedValue([
    { zoneId: 1, name: '华东-上海', inventoryStatus: 1, statusText: '充足' },
    { zoneId: 2, name: '华南-广州', inventoryStatus: 3, statusText: '紧张' },
  ] as never)
  api.activation.listMyCodes.mockResolvedValue({ records: [], page: 1, totalPage: 1, total: 0 })
  api.engagement.getPlayTrialConfig.mockResolvedValue({
    gameName: '星海远征',
    description: '大型太空策略手游。',
    highlights: [],
    packageName: 'com.xinghai.expedition',
    packageSize: 1,
    version: '1',
    downloadUrl: 'https://download.example.cn/x.apk',
    trial: { offered: true, goodName: '畅享版 4核4G', configName: '4核 4G', minutes: 120 },
  })
  api.engagement.getNewUserGuideConfig.mockResolvedValue({
    steps: [
      { id: 1, title: '欢迎使用云手机', text: '云端安卓手机', image: 'guide-welcome' },
      { id: 2, title: '免费试用一台', text: '每个账号限领一次', image: 'guide-trial' },
    ],
    trialOffer,
  } as never)
  api.space.getDeviceSpace.mockResolvedValue(phone7Space)
})

function expectNoSuccessNorTypeError() {
  expect(toasts().filter((t) => t.icon === 'success')).toEqual([])
  expect(seen()).not.toMatch(/TypeError|Cannot read|undefined|null/)
}

describe.each(CASES)('$name answers the soft codes as the SPEC says', (c) => {
  beforeEach(() => {
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: c.route }] as never)
  })

  it.each(SOFT_CODES)('soft code %i: its message, no success, no navigation', async (code) => {
    const msg = code === c.serverCode ? c.serverMsg : `服务端说明${code}`
    answer = { code, msg }
    await c.open()
    const expected = c.refusalText?.(code, msg) ?? msg
    await waitFor(() => expect(seen()).toContain(expected))
    expect(requested).toContain(c.path)
    expectNoSuccessNorTypeError()
    // 1025's dialog (runtime/refusal-dialogs.ts) leads to 去充值; nothing else navigates
    const recharge = code === ResultCode.INSUFFICIENT_ACCOUNT_BALANCE
    if (recharge) expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/user/recharge' })
    for (const fn of NAVIGATIONS) if (!recharge) expect(Taro[fn]).not.toHaveBeenCalled()
  })

  it('another refusal (1080) toasts its message', async () => {
    answer = { code: 1080, msg: '操作失败，请联系客服' }
    await c.open()
    await waitFor(() => expect(toasts().map((t) => t.title)).toContain('操作失败，请联系客服'))
    expectNoSuccessNorTypeError()
    for (const fn of NAVIGATIONS) expect(Taro[fn]).not.toHaveBeenCalled()
  })

  it('2017: to login (unless the page is public), never a success', async () => {
    answer = { code: ResultCode.LOGIN_TOKEN_INVALID, msg: '登录已过期，请重新登录' }
    await c.open()
    await waitFor(() => expect(requested).toContain(c.path))
    await waitFor(() => expect(toasts().map((t) => t.title)).toContain('登录已过期，请重新登录'))
    if (!isPublicPage(c.route)) {
      await waitFor(() =>
        expect(Taro.redirectTo).toHaveBeenCalledWith({
          url: expect.stringMatching(/^\/pages\/login\/login\?redirect=/),
        }),
      )
    } else expect(Taro.redirectTo).not.toHaveBeenCalled()
    expect(Taro.getStorageSync(STORAGE_KEYS.token)).toBeFalsy()
    expectNoSuccessNorTypeError()
  })
})
