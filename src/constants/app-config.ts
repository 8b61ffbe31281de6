/**
 * Builds the app config (pages, sub-packages, tab bar, preload rules) from the route table, so the
 * table is the one source of truth for routes. Used by app.config.ts at build time and by tests.
 */
import { ROUTES, type RouteDef } from './routes'

/** Which sub-packages each tab page preloads (only packages that exist are kept). */
export const TAB_PRELOADS: Record<string, string[]> = {
  'pages/Home/index': [
    'pages/login',
    'pages/webView',
    'pages/Renew',
    'pages/Device',
    'pages/Group',
    'pages/landing',
    'pages/Space',
  ],
  'pages/Home/create': ['pages/login', 'pages/create', 'pages/pay'],
  'pages/Home/user': ['pages/user', 'pages/login', 'pages/CloudBeanToMonthly'],
}

export const TAB_ICON_DIR = 'assets/tab'

/** 'pages/user/config' → root 'pages/user', page 'config' */
export function splitPackagePath(path: string): { root: string; page: string } {
  const [pages, folder, ...rest] = path.split('/')
  return { root: `${pages}/${folder}`, page: rest.join('/') }
}

export function buildAppConfig(routes: RouteDef[] = Object.values(ROUTES)) {
  const tabs = routes.filter((r) => r.tab)
  const subRoutes = routes.filter((r) => !r.tab)
  const packages = new Map<string, string[]>()
  for (const route of subRoutes) {
    const { root, page } = splitPackagePath(route.path)
    packages.set(root, [...(packages.get(root) ?? []), page])
  }
  const preloadRule = Object.fromEntries(
    Object.entries(TAB_PRELOADS).map(([page, roots]) => [
      page,
      { network: 'all' as const, packages: roots.filter((root) => packages.has(root)) },
    ]),
  )
  return {
    pages: tabs.map((r) => r.path),
    subPackages: [...packages].map(([root, pages]) => ({ root, pages })),
    preloadRule,
    tabBar: {
      color: '#646a78',
      selectedColor: '#1659e6',
      backgroundColor: '#ffffff',
      borderStyle: 'white' as const,
      list: tabs.map((r) => ({
        pagePath: r.path,
        text: r.tab!.text,
        iconPath: `${TAB_ICON_DIR}/${r.tab!.icon}.png`,
        selectedIconPath: `${TAB_ICON_DIR}/${r.tab!.icon}-active.png`,
      })),
    },
    window: {
      backgroundTextStyle: 'light' as const,
      navigationBarBackgroundColor: '#ffffff',
      navigationBarTitleText: '云手机',
      navigationBarTextStyle: 'black' as const,
      backgroundColor: '#f5f6f8',
    },
    permission: {
      'scope.userLocation': { desc: '用于选择和查看企业地址' },
    },
    requiredPrivateInfos: ['chooseLocation' as const],
    lazyCodeLoading: 'requiredComponents' as const,
  }
}
