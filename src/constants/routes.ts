/**
 * The one route table (SPEC section 2). app.config.ts is generated from it, navigation uses it, and
 * login gating reads `public` from it. A route is added here when its page is built.
 * A page's title lives once, in its own `*.config.ts` (navigationBarTitleText), where Taro reads it.
 *
 * `pkg` is the sub-package root (the top folder under pages/); tab pages have no package (main package).
 */
export interface RouteDef {
  /** page path without leading slash, e.g. 'pages/user/config' */
  path: string
  /** pages that do not force a login (SPEC 2 "Login gating") */
  public?: boolean
  /** launch logic skips channel-code handling on this page (SPEC 2) */
  skipChannelCode?: boolean
  /**
   * A tab page. `preload`: the sub-packages (roots) WeChat downloads when the tab opens — every package
   * one tap from the tab (__tests__/constants/preloads.test.ts reads the tab's links and fails when one
   * is missing; check:weapp holds the sum to WeChat's 2 MiB preload quota).
   */
  tab?: { text: string; icon: string; preload: `pages/${string}`[] }
  /** custom navigation bar */
  customNav?: boolean
  pullDownRefresh?: boolean
}

export const ROUTES = {
  home: {
    path: 'pages/Home/index',
    public: true,
    skipChannelCode: true,
    customNav: true,
    tab: {
      text: '我的云机',
      icon: 'home',
      preload: [
        'pages/login',
        'pages/webView',
        'pages/Renew',
        'pages/Device',
        'pages/Group',
        'pages/landing',
        'pages/Space',
        // 我的云豆: the request layer's 去充值 dialog (1015, 1025) opens it from any page
        'pages/user',
        // the frozen-account dialog's 联系客服 (1057), from any page
        'pages/CustomerService',
      ],
    },
  },
  create: {
    path: 'pages/Home/create',
    public: true,
    tab: {
      text: '创建云机',
      icon: 'create',
      // pay is two taps away (商品 → 购买 → 支付) but on the one path this tab exists for
      // pages/user: the request layer's 去充值 dialog (1015, 1025) opens 我的云豆 from any page
      preload: ['pages/login', 'pages/create', 'pages/CustomerService', 'pages/pay', 'pages/user'],
    },
  },
  mine: {
    path: 'pages/Home/user',
    public: true,
    tab: {
      text: '我的',
      icon: 'user',
      preload: [
        'pages/user',
        'pages/login',
        'pages/CloudBeanToMonthly',
        'pages/Group',
        'pages/Device',
        'pages/Space',
        'pages/Apps',
        'pages/CustomerService',
        'pages/webView',
      ],
    },
  },

  login: { path: 'pages/login/login' },
  wechatAuth: { path: 'pages/auth/wechatAuth', skipChannelCode: true },
  customerService: { path: 'pages/CustomerService/index' },
  protocol: { path: 'pages/webView/protocol' },
  notFound: { path: 'pages/common/notFound', public: true },

  accountList: { path: 'pages/user/accountList', public: true },
  config: { path: 'pages/user/config' },
  permission: { path: 'pages/user/permission' },
  personalData: { path: 'pages/user/personalData' },
  changePhone: { path: 'pages/user/changePhone' },
  changePassword: { path: 'pages/user/changePassword' },
  setPassword: { path: 'pages/user/setPassword' },
  message: { path: 'pages/user/message' },
  messageList: { path: 'pages/user/messageList' },
  messageSet: { path: 'pages/user/messageSet' },
  logOut: { path: 'pages/user/logOut' },

  /** Public: a visitor sees a configuration's prices and zones; 立即购买 asks for a login. */
  goodsDetails: { path: 'pages/create/goodsDetails', public: true },
  buyGoods: { path: 'pages/create/buyGoods', public: true },
  bigUserBuyGoods: { path: 'pages/create/bigUserBuyGoods' },
  pay: { path: 'pages/pay/pay' },
  renew: { path: 'pages/Renew/index' },
  upOrDownConfig: { path: 'pages/Device/upOrDownConfig' },
  videoChangeOpType: { path: 'pages/Device/videoChangeOpType' },

  webInstance: { path: 'pages/webView/web_instance', customNav: true },
  group: { path: 'pages/Group/index' },
  moveGroup: { path: 'pages/Group/pages/MoveGroup' },
  changeZone: { path: 'pages/Device/changeZone' },
  deviceTransfer: { path: 'pages/Device/transfer' },
  empower: { path: 'pages/Device/empower' },
  selectChangeZone: { path: 'pages/Device/selectChangeZone' },
  replaceDevice: { path: 'pages/Device/replace' },
  upgradeDevice: { path: 'pages/Device/upgradeDevice' },
  selectDevice: { path: 'pages/Device/selectDevice' },
  activateDevice: { path: 'pages/user/activateDevice' },
  scan: { path: 'pages/user/scan' },
  scanResult: { path: 'pages/user/scanResult' },
  chooseDevice: { path: 'pages/user/device' },
  recharge: { path: 'pages/user/recharge' },
  cloudBeansList: { path: 'pages/user/cloudBeansList' },
  cloudBeanToMonthly: { path: 'pages/CloudBeanToMonthly/index' },
  floatingBall: { path: 'pages/user/floatingBall' },
  invite: { path: 'pages/user/invite' },
  space: { path: 'pages/Space/index', skipChannelCode: true },
  /** 应用管理: the user's APKs and the catalogue, installed on the fleet (docs/apps.md). */
  apps: { path: 'pages/Apps/index' },
  appsInstalled: { path: 'pages/Apps/installed' },
  dataCenter: { path: 'pages/Space/DataCenter' },
  historyData: { path: 'pages/Space/HistoryData' },
  buySpace: { path: 'pages/Space/BuySpace' },
  coupon: { path: 'pages/user/coupon' },
  couponUse: { path: 'pages/user/couponUse' },
  playTrial: {
    path: 'pages/landing/play-trial/index',
    public: true,
    skipChannelCode: true,
  },
  playTrialDownload: {
    path: 'pages/landing/play-trial/download',
    public: true,
    skipChannelCode: true,
  },
  /** Public (a visitor may look at an activity); buying a seckill unit asks for a login. */
  activity: { path: 'pages/webView/activity', public: true },
} satisfies Record<string, RouteDef>

export type RouteName = keyof typeof ROUTES

/** The login page is reachable without a session, but it is not a "public page" of SPEC 2 for redirects. */
const LOGIN_FREE = new Set<string>([
  ROUTES.login.path,
  ROUTES.wechatAuth.path,
  ROUTES.protocol.path,
])

const allRoutes: RouteDef[] = Object.values(ROUTES)

const normalise = (path: string) => path.replace(/^\//, '').split('?')[0]

/** SPEC 2: pages that do not force a login. */
export function isPublicPage(path: string): boolean {
  const p = normalise(path)
  return p === '' || allRoutes.some((r) => r.path === p && r.public)
}

/** Pages that need a session; a logged-out visitor is sent to login and brought back afterwards. */
export function requiresLogin(path: string): boolean {
  const p = normalise(path)
  return !isPublicPage(p) && !LOGIN_FREE.has(p)
}

export function skipsChannelCode(path: string): boolean {
  const p = normalise(path)
  return p === '' || allRoutes.some((r) => r.path === p && r.skipChannelCode)
}

export function isTabPage(path: string): boolean {
  const p = normalise(path)
  return allRoutes.some((r) => r.path === p && r.tab)
}

/** '/pages/user/config?x=1' for navigation. */
export function url(name: RouteName, query?: Record<string, string | number | undefined>): string {
  const qs = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
  return `/${ROUTES[name].path}${qs ? `?${qs}` : ''}`
}

/** The route of that name, or undefined when the table has none (a page not built yet). */
export function routeIfPresent(name: string | undefined): RouteName | undefined {
  return name !== undefined && Object.prototype.hasOwnProperty.call(ROUTES, name)
    ? (name as RouteName)
    : undefined
}

export { allRoutes }
