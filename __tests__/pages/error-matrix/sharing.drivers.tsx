/** Sharing and transfer: the error matrix drivers of 授权, share codes and 转移 */
import { fireEvent, screen } from '@testing-library/react'
import { ResultCode } from '@/domain/result-codes'
import Empower from '@/pages/Device/empower'
import Transfer from '@/pages/Device/transfer'
import ScanResult from '@/pages/user/scanResult'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { device, page } from '../Home/fleet-fixtures'
import type { Driver } from './harness'

const SHARE_CODE = 'Ab_9-xYz12345678'
const session = (mobilePhone: string) => ({
  session: {
    mobilePhone,
    userInfo: { hasPassword: true },
    loadUserInfo: jest.fn().mockResolvedValue(undefined),
  },
  fleet: { reload: jest.fn().mockResolvedValue(undefined) },
})
const grantAnswers = {
  '/device/detail': device({ deviceId: 7, name: '云手机-7' }),
  '/device/empower/list': page([
    {
      grantId: 5,
      deviceId: 7,
      deviceName: '云手机-7',
      permission: 2,
      expiresAt: Date.UTC(2026, 10, 29, 4),
      createdAt: Date.UTC(2026, 10, 22, 4),
      otherMobile: '136****0002',
    } as never,
  ]),
}
/** 授权管理; `deviceIds`: the phones chosen on Home for a new grant */
const openEmpower = async (deviceIds?: string) => {
  setRouteParams(deviceIds ? { deviceIds } : {})
  const view = renderPage(<Empower />, session('13600000001'))
  if (deviceIds) await screen.findByText('授权的云手机（1台）')
  return view.container
}
/** 扫码结果 of a share QR */
const openShare = () => {
  setRouteParams({ text: encodeURIComponent(`cloudphone:share:${SHARE_CODE}`) })
  renderPage(<ScanResult />, {})
}
const transferAnswers = {
  '/device/detail': device({ deviceId: 7, name: '云手机-7' }),
  '/device/transfer/list': page([]),
}
const openTransfer = (deviceIds?: string) => {
  setRouteParams(deviceIds ? { deviceIds } : {})
  return renderPage(<Transfer />, session('13700000001')).container
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /device/empower/list': {
    route: 'pages/Device/empower',
    answers: grantAnswers,
    open: async () => void (await openEmpower()),
  },
  'POST /device/empower': {
    route: 'pages/Device/empower',
    answers: grantAnswers,
    async open() {
      const container = await openEmpower('7')
      typeInto(container, '被授权人手机号', '13600000002')
      fireEvent.click(screen.getByText('确认授权'))
    },
  },
  'POST /device/empower/share': {
    route: 'pages/Device/empower',
    answers: grantAnswers,
    async open() {
      await openEmpower('7')
      fireEvent.click(screen.getByText('生成分享二维码'))
    },
  },
  'POST /device/empower/revoke': {
    route: 'pages/Device/empower',
    answers: grantAnswers,
    async open() {
      await openEmpower()
      fireEvent.click(await screen.findByText('撤销授权'))
    },
  },
  'GET /device/empower/share': {
    route: 'pages/user/scanResult',
    open: async () => openShare(),
  },
  'POST /device/empower/acceptShare': {
    route: 'pages/user/scanResult',
    answers: {
      '/device/empower/share': {
        ownerMobile: '136****0001',
        deviceCount: 2,
        permission: 2,
        days: 7,
        expiresAt: Date.now() + 3_600_000,
      },
    },
    async open() {
      openShare()
      fireEvent.click(await screen.findByText('接受授权'))
    },
  },
  'POST /device/transfer': {
    route: 'pages/Device/transfer',
    answers: transferAnswers,
    async open() {
      const container = openTransfer('7')
      await screen.findByText('云手机-7')
      typeInto(container, '接收方手机号', '13700000002')
      typeInto(container, '验证码', '123456')
      fireEvent.click(screen.getByText('确认转移'))
    },
    // 1331: the account has no login password yet; the page asks to set one and opens 设置密码
    shows: (code, msg) =>
      code === ResultCode.MUST_SET_PASSWORD ? '为保障账号安全，转移云手机前需设置登录密码' : msg,
    leadsTo: { [ResultCode.MUST_SET_PASSWORD]: /^\/pages\/user\/setPassword\?/ },
  },
  'GET /device/transfer/list': {
    route: 'pages/Device/transfer',
    answers: transferAnswers,
    async open() {
      openTransfer()
      fireEvent.click(screen.getByText('转出记录'))
    },
  },
}
