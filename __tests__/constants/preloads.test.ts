/**
 * Preloads follow the route graph: each tab preloads every sub-package one tap from it
 * (the route table declares them on the tab; a tab may add one further on its main path). The links are read from the source of the tab page and of everything it imports within src/
 * (as the mini-program build resolves it: `x.weapp.tsx` before `x.tsx`): navigate/redirect/relaunch/url
 * calls with a route name, `ROUTES.x`, '/pages/…' path strings, and route names given as values of a
 * route map in a file that imports the route types (the fleet's ACTION_ROUTES).
 */
import fs from 'node:fs'
import path from 'node:path'
import { buildAppConfig, splitPackagePath } from '@/constants/app-config'
import { ROUTES, type RouteName } from '@/constants/routes'

const SRC = path.resolve(__dirname, '../../src')
// The route table names every page; it is where links are declared, not where they are made.
const TABLE_FILES = new Set(['constants/routes.ts', 'constants/app-config.ts'])
const routeNames = new Set(Object.keys(ROUTES))
const byPath = new Map(Object.entries(ROUTES).map(([name, r]) => [r.path, name as RouteName]))

function resolveImport(from: string, spec: string): string | undefined {
  let base: string
  if (spec.startsWith('@/')) base = path.join(SRC, spec.slice(2))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return undefined
  const candidates = ['.weapp.tsx', '.weapp.ts', '.tsx', '.ts'].flatMap((ext) => [
    base + ext,
    path.join(base, `index${ext}`),
  ])
  return candidates.find((file) => fs.existsSync(file))
}

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1')

/** Route names a file links to, and the src/ files it imports. */
function scan(file: string): { links: Set<RouteName>; imports: string[] } {
  const source = stripComments(fs.readFileSync(file, 'utf8'))
  const links = new Set<RouteName>()
  const add = (name: string | undefined) => {
    if (name && routeNames.has(name)) links.add(name as RouteName)
  }
  for (const m of source.matchAll(
    /\b(?:navigate|redirect|relaunch|url|routeIfPresent)\(\s*['"](\w+)['"]/g,
  ))
    add(m[1])
  for (const m of source.matchAll(/\bROUTES\.(\w+)/g)) add(m[1])
  for (const m of source.matchAll(/['"`]\/?(pages\/[\w/-]+)/g)) add(byPath.get(m[1]))
  if (/from '@\/constants\/routes'/.test(source) && /\bRouteName\b/.test(source)) {
    for (const m of source.matchAll(/^\s*\w+:\s*'(\w+)',?$/gm)) add(m[1])
  }
  const imports = [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)]
    .map((m) => resolveImport(file, m[1]))
    .filter((f): f is string => f !== undefined)
    .filter((f) => !TABLE_FILES.has(path.relative(SRC, f)))
  return { links, imports }
}

/** Every route reachable in one tap from a page: links of its file and its imports, transitively. */
function linksOf(pagePath: string): Set<RouteName> {
  const entry = resolveImport(path.join(SRC, 'app.ts'), `./${pagePath}`)
  if (!entry) throw new Error(`no source for ${pagePath}`)
  const seen = new Set<string>()
  const links = new Set<RouteName>()
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const found = scan(file)
    found.links.forEach((l) => links.add(l))
    queue.push(...found.imports)
  }
  return links
}

const config = buildAppConfig()
const tabs = Object.values(ROUTES).filter((r) => 'tab' in r)

describe('tab preloads follow the route graph', () => {
  it.each(tabs.map((t) => [t.path]))('%s preloads every sub-package it links to', (tabPath) => {
    const linked = [...linksOf(tabPath)]
      .map((name) => ROUTES[name])
      .filter((r) => !('tab' in r))
      .map((r) => splitPackagePath(r.path).root)
    const preloaded: string[] = config.preloadRule[tabPath]?.packages ?? []
    const missing = [...new Set(linked)].filter((root) => !preloaded.includes(root))
    expect(missing).toEqual([])
  })

  it('the scanner sees the links the 我的 tab makes (it would otherwise pass on nothing)', () => {
    const links = linksOf(ROUTES.mine.path)
    for (const name of ['group', 'empower', 'space', 'customerService', 'protocol'] as const) {
      expect(links).toContain(name)
    }
    // …and the fleet's page actions (a route map, not a call) from 我的云机
    expect(linksOf(ROUTES.home.path)).toContain('renew')
  })

  it('a preload naming no package is refused, not dropped', () => {
    const routes = [
      {
        path: 'pages/Home/index',
        title: 't',
        tab: { text: 't', icon: 'i', preload: ['pages/nope'] },
      },
      { path: 'pages/user/config', title: 'c' },
    ] as const
    expect(() => buildAppConfig([...routes] as never)).toThrow(/pages\/nope/)
  })
})
