/**
 * The one route table (SPEC section 2). app.config.ts is generated from it, navigation uses it, and
 * login gating reads `public` from it. A route is added here when its page is built.
 *
 * `pkg` is the sub-package root (the top folder under pages/); tab pages have no package (main package).
 */
export interface RouteDef {
  /** page path without leading slash, e.g. 'pages/user/config' */
  path: string
  title: string
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
    title: '我的云机',
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
      ],
    },
  },
  create: {
    path: 'pages/Home/create',
    title: '创建云机',
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
    title: '我的',
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
        'pages/CustomerService',
        'pages/webView',
      ],
    },
  },

  login: { path: 'pages/login/login', title: '登录' },
  wechatAuth: { path: 'pages/auth/wechatAuth', title: '微信授权', skipChannelCode: true },
  customerService: { path: 'pages/CustomerService/index', title: '联系客服' },
  protocol: { path: 'pages/webView/protocol', title: '协议详情' },
  notFound: { path: 'pages/common/notFound', title: '页面不存在', public: true },

  accountList: { path: 'pages/user/accountList', title: '切换账号', public: true },
  config: { path: 'pages/user/config', title: '设置' },
  permission: { path: 'pages/user/permission', title: '权限管理' },
  personalData: { path: 'pages/user/personalData', title: '个人资料' },
  changePhone: { path: 'pages/user/changePhone', title: '更换手机号' },
  changePassword: { path: 'pages/user/changePassword', title: '修改密码' },
  setPassword: { path: 'pages/user/setPassword', title: '设置密码' },
  message: { path: 'pages/user/message', title: '消息中心' },
  messageList: { path: 'pages/user/messageList', title: '消息列表' },
  messageSet: { path: 'pages/user/messageSet', title: '消息设置' },
  logOut: { path: 'pages/user/logOut', title: '注销账号' },

  goodsDetails: { path: 'pages/create/goodsDetails', title: '商品详情' },
  buyGoods: { path: 'pages/create/buyGoods', title: '购买云机', public: true },
  bigUserBuyGoods: { path: 'pages/create/bigUserBuyGoods', title: '企业采购' },
  pay: { path: 'pages/pay/pay', title: '支付' },
  renew: { path: 'pages/Renew/index', title: '续费' },
  upOrDownConfig: { path: 'pages/Device/upOrDownConfig', title: '升降配' },
  videoChangeOpType: { path: 'pages/Device/videoChangeOpType', title: '升级视频定制版' },

  webInstance: { path: 'pages/webView/web_instance', title: '云手机', customNav: true },
  group: { path: 'pages/Group/index', title: '分组管理' },
  moveGroup: { path: 'pages/Group/pages/MoveGroup', title: '移动分组' },
  changeZone: { path: 'pages/Device/changeZone', title: '更换地区' },
  deviceTransfer: { path: 'pages/Device/transfer', title: '转移云机' },
  empower: { path: 'pages/Device/empower', title: '授权管理' },
  selectChangeZone: { path: 'pages/Device/selectChangeZone', title: '选择地区' },
  replaceDevice: { path: 'pages/Device/replace', title: '更换云机' },
  upgradeDevice: { path: 'pages/Device/upgradeDevice', title: '系统更新' },
  selectDevice: { path: 'pages/Device/selectDevice', title: '选择机型' },
  activateDevice: { path: 'pages/user/activateDevice', title: '激活码' },
  scan: { path: 'pages/user/scan', title: '扫一扫' },
  scanResult: { path: 'pages/user/scanResult', title: '扫码结果' },
  chooseDevice: { path: 'pages/user/device', title: '选择云机' },
  recharge: { path: 'pages/user/recharge', title: '我的云豆' },
  cloudBeansList: { path: 'pages/user/cloudBeansList', title: '云豆明细' },
  cloudBeanToMonthly: { path: 'pages/CloudBeanToMonthly/index', title: '云豆转包月' },
  floatingBall: { path: 'pages/user/floatingBall', title: '悬浮球设置' },
  invite: { path: 'pages/user/invite', title: '邀请好友' },
  space: { path: 'pages/Space/index', title: '云空间', skipChannelCode: true },
  dataCenter: { path: 'pages/Space/DataCenter', title: '数据中心' },
  historyData: { path: 'pages/Space/HistoryData', title: '备份与恢复记录' },
  buySpace: { path: 'pages/Space/BuySpace', title: '购买空间' },
  coupon: { path: 'pages/user/coupon', title: '优惠券' },
  couponUse: { path: 'pages/user/couponUse', title: '使用记录' },
  playTrial: {
    path: 'pages/landing/play-trial/index',
    title: '免费试玩',
    public: true,
    skipChannelCode: true,
  },
  playTrialDownload: {
    path: 'pages/landing/play-trial/download',
    title: '下载游戏',
    public: true,
    skipChannelCode: true,
  },
  /** Public (a visitor may look at an activity); buying a seckill unit asks for a login. */
  activity: { path: 'pages/webView/activity', title: '活动', public: true },
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
