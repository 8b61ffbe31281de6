/** Step 5: scripts/weapp-domains.mjs prints the configured domains and refuses the development defaults. */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

import { expect, step } from '../check.mjs'
import { PUBLIC_API_BASE, repoRoot } from '../context.mjs'
import { baseEnv } from '../processes.mjs'

export const miniProgramDomains = step('5. the mini-program domain whitelists', async () => {
  const script = path.join(repoRoot, 'scripts/weapp-domains.mjs')
  const release = spawnSync(process.execPath, [script], {
    cwd: repoRoot,
    env: { ...baseEnv(), TARO_APP_ID: 'wx0123456789abcdef', TARO_APP_API_BASE: PUBLIC_API_BASE },
    encoding: 'utf8',
  })
  expect(release.status === 0, `weapp-domains.mjs exited ${release.status}:\n${release.stderr}`)
  const origin = new URL(PUBLIC_API_BASE).origin
  for (const label of ['request合法域名', 'uploadFile合法域名'])
    expect(
      new RegExp(`${label}\\s+${origin}$`, 'm').test(release.stdout),
      `no "${label} ${origin}" in:\n${release.stdout}`,
    )
  expect(
    release.stdout.includes('业务域名') && release.stdout.trimEnd().endsWith(origin),
    `no 业务域名 ${origin} in:\n${release.stdout}`,
  )
  const defaults = spawnSync(process.execPath, [script], {
    cwd: repoRoot,
    env: baseEnv(),
    encoding: 'utf8',
  })
  expect(
    defaults.status === 1 && /must be https/.test(defaults.stderr),
    `the development defaults were not refused (exit ${defaults.status}):\n${defaults.stderr}`,
  )
  console.log(`   ${origin} printed for request, uploadFile and 业务域名; the defaults refused`)
})
