/**
 * Builds the app config (pages, sub-packages, tab bar, preload rules) from the route table, so the
 * table is the one source of truth for routes. Used by app.config.ts at build time and by tests.
 */
import { ROUTES, type RouteDef } from './routes'

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
    tabs.map((r) => {
      const unknown = r.tab!.preload.filter((root) => !packages.has(root))
      if (unknown.length > 0) throw new Error(`${r.path} preloads no such package: ${unknown}`)
      return [r.path, { network: 'all' as const, packages: r.tab!.preload }]
    }),
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
