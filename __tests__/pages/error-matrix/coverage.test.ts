/**
 * The error matrix's coverage (harness.tsx): every route the server declares in route-codes.ts has a
 * driver in one of the areas' `*.drivers.tsx`, or a reason here why no page calls it.
 */
import { ROUTE_CODES } from '../../../server/src/contract/route-codes'
import { DRIVERS as account } from './account.drivers'
import { DRIVERS as apps } from './apps.drivers'
import { DRIVERS as buying } from './buying.drivers'
import { DRIVERS as fleet } from './fleet.drivers'
import { DRIVERS as misc } from './misc.drivers'
import { DRIVERS as pay } from './pay.drivers'
import { DRIVERS as profile } from './profile.drivers'
import { DRIVERS as sharing } from './sharing.drivers'
import { DRIVERS as space } from './space.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

const AREAS = { account, apps, buying, fleet, misc, pay, profile, sharing, space }

/** Routes no page calls, and why. */
const NOT_FROM_PAGES: Record<string, string> = {
  'GET /health': "the load balancer's health check",
  'GET /sandbox/pay/checkout':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/sms/last': "the sandbox SMS's last code, for tests and demos",
  'GET /sandbox/supplier/assets/{file}':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/stream':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/stream/frame/{podId}':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /sandbox/supplier/control/key':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /sandbox/supplier/stream/start':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/floatingBall':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/floatingBall.js':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/control/state':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/supplier/cover/{instanceId}':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'GET /sandbox/wechat/oauth2/authorize':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /sandbox/supplier/control/command':
    "the sandbox providers' own pages and assets (stand-ins for the pay, supplier and WeChat sites); production never registers them",
  'POST /pay/notify/{provider}': "the payment providers' server-to-server notifications",
  'POST /pay/notify/{provider}/refund': "the payment providers' server-to-server notifications",
  'GET /device/summary': 'no page of this client calls it',
  'GET /order/list': 'no page of this client calls it',
  'GET /space/task':
    'no page of this client calls it: 数据中心 and 历史记录 follow their tasks through /space/device and /space/history',
  'POST /order/createCloudOrderNew':
    'SPEC 7 lists it; this client buys through /order/createCloudOrder',
  'POST /userUsageLog/saveUserUsageLog':
    "the app's usage log (stores/usage-log-store.ts): nothing is shown, and SPEC 8's error reporting ignores it",
}

describe('the error matrix covers every route the server declares', () => {
  it('each route in route-codes.ts has a driver, or says why no page calls it', () => {
    const driven = Object.values(AREAS).flatMap((drivers) => Object.keys(drivers))
    const listed = [...driven, ...Object.keys(NOT_FROM_PAGES)]
    expect(listed.filter((key) => !(key in ROUTE_CODES))).toEqual([])
    expect(Object.keys(ROUTE_CODES).filter((key) => !listed.includes(key))).toEqual([])
    expect(listed.length).toBe(new Set(listed).size)
  })
})
