/**
 * An empty Taro 4 React app with our build config, for benches that compare against "what Taro itself
 * costs": three tab pages (with our tab icons), one sub-package with two pages, one <View>/<Text> per
 * page. It shares our config/, babel.config.js, tsconfig.json, project.config.json and node_modules
 * (symlinked), so any difference in the figures is our code and our libraries, not the toolchain.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const TABS = [
  ['pages/index/index', '首页', 'home'],
  ['pages/create/index', '创建', 'create'],
  ['pages/user/index', '我的', 'user'],
]
const SUB_PACKAGE = { root: 'pages/sub', pages: ['first/index', 'second/index'] }

const page = (title) => `import { View, Text } from '@tarojs/components'

export default function Page() {
  return (
    <View>
      <Text>${title}</Text>
    </View>
  )
}
`

/** Writes the empty app into `dir` (made if missing) and returns `dir`. */
export function writeEmptyTaroApp(repoRoot, dir) {
  fs.mkdirSync(path.join(dir, 'src'), { recursive: true })
  const ourPackage = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
  const emptyPackage = {
    name: 'empty-taro-app',
    private: true,
    templateInfo: ourPackage.templateInfo,
    browserslist: ourPackage.browserslist,
    dependencies: ourPackage.dependencies,
    devDependencies: ourPackage.devDependencies,
  }
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(emptyPackage, null, 2))
  for (const file of ['babel.config.js', 'tsconfig.json', 'project.config.json']) {
    fs.copyFileSync(path.join(repoRoot, file), path.join(dir, file))
  }
  fs.cpSync(path.join(repoRoot, 'config'), path.join(dir, 'config'), { recursive: true })
  fs.cpSync(path.join(repoRoot, 'types'), path.join(dir, 'types'), { recursive: true })
  fs.copyFileSync(path.join(repoRoot, 'src/index.html'), path.join(dir, 'src/index.html'))
  fs.cpSync(path.join(repoRoot, 'src/assets/tab'), path.join(dir, 'src/assets/tab'), {
    recursive: true,
  })
  // the shared config copies the site's icon into every H5 build
  fs.copyFileSync(
    path.join(repoRoot, 'src/assets/favicon.svg'),
    path.join(dir, 'src/assets/favicon.svg'),
  )
  const modules = path.join(dir, 'node_modules')
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(repoRoot, 'node_modules'), modules, 'dir')

  const appConfig = {
    pages: TABS.map(([p]) => p),
    subPackages: [SUB_PACKAGE],
    tabBar: {
      list: TABS.map(([pagePath, text, icon]) => ({
        pagePath,
        text,
        iconPath: `assets/tab/${icon}.png`,
        selectedIconPath: `assets/tab/${icon}-active.png`,
      })),
    },
    window: { navigationBarTitleText: 'empty' },
  }
  fs.writeFileSync(
    path.join(dir, 'src/app.config.ts'),
    `export default defineAppConfig(${JSON.stringify(appConfig, null, 2)})\n`,
  )
  fs.writeFileSync(
    path.join(dir, 'src/app.ts'),
    `import type { PropsWithChildren } from 'react'

export default function App({ children }: PropsWithChildren) {
  return children
}
`,
  )
  const allPages = [
    ...TABS.map(([p]) => p),
    ...SUB_PACKAGE.pages.map((p) => `${SUB_PACKAGE.root}/${p}`),
  ]
  for (const pagePath of allPages) {
    const file = path.join(dir, 'src', `${pagePath}.tsx`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, page(pagePath))
    fs.writeFileSync(
      file.replace(/\.tsx$/, '.config.ts'),
      `export default definePageConfig({ navigationBarTitleText: '${pagePath}' })\n`,
    )
  }
  return dir
}

/** Written into an empty app's H5 build once it is complete (built and precompressed). */
const BUILT = '.empty-h5-built'

/**
 * Where a bench builds the empty app for H5: `dir`, or BENCH_EMPTY_H5 when scripts/bench-smoke.mjs sets
 * it (one folder for its whole run, so that the empty app is built once, not by each bench). `built`:
 * an earlier bench of the run finished the build there, to be used as it is.
 */
export function emptyH5Output(dir) {
  const out = process.env.BENCH_EMPTY_H5 || dir
  return { out, built: fs.existsSync(path.join(out, BUILT)) }
}

/** After `taro build --type h5` into `out`: precompressed as our build is (server's static plugin). */
export function finishEmptyH5(repoRoot, out) {
  execFileSync(process.execPath, [path.join(repoRoot, 'scripts/compress-h5.mjs'), out], {
    stdio: 'ignore',
  })
  fs.writeFileSync(path.join(out, BUILT), new Date().toISOString())
}
