/** Steps 1 and 1b: production refuses to start without what docs/deploy.md's table marks required. */
import path from 'node:path'

import { expect, step } from '../check.mjs'
import { documentedProviders, documentedRequired } from '../deploy-doc.mjs'
import { children, exitWithin, startServer, tail, work } from '../processes.mjs'

/** Starts main.ts in production with `env` and expects it to refuse within 60 s; returns its output. */
async function refusal(name, env) {
  const server = startServer(name, {
    NODE_ENV: 'production',
    DATA_DIR: path.join(work, `${name}-data`),
    SKIP_H5_BUILD: '1',
    ...env,
  })
  const outcome = await exitWithin(server.exited, 60_000)
  expect(outcome !== null, `it is still running after 60 s: it started\n${tail(server)}`)
  expect(outcome.code !== 0, `it exited 0\n${tail(server)}`)
  children.delete(server.child)
  const log = server.log()
  expect(
    /Refusing to start with NODE_ENV=production/.test(log),
    `no refusal in its output\n${tail(server)}`,
  )
  return { log, server }
}

export const refusesWithNothingSet = step(
  '1. production refuses to start with nothing set',
  async () => {
    const required = documentedRequired()
    const { log, server } = await refusal('refused', {})
    const missing = required.filter((name) => !log.includes(name))
    expect(missing.length === 0, `the refusal does not name ${missing.join(', ')}\n${tail(server)}`)
    // Every problem it lists names a variable the document marks required, so the table lists them all.
    const problems = log.split('\n').filter((line) => line.startsWith('- '))
    expect(problems.length > 0, `the refusal lists no problems\n${tail(server)}`)
    const undocumented = problems.filter((line) => !required.some((name) => line.includes(name)))
    expect(
      undocumented.length === 0,
      `docs/deploy.md marks none of the variables of these problems "required":\n${undocumented.join('\n')}`,
    )
    console.log(
      `   refused with ${problems.length} problems, naming all ${required.length} required variables`,
    )
  },
)

export const refusesProvidersWithoutKeys = step(
  '1b. every real provider chosen, no keys: one refusal names every key',
  async () => {
    const providers = documentedProviders()
    const { log, server } = await refusal(
      'refused-keys',
      Object.fromEntries(providers.map(({ name, value }) => [name, value])),
    )
    for (const { name, value, needs } of providers) {
      // an adapter this build does not have yet (they are added one by one) is said, not checked
      if (log.includes(`this build has no ${value} adapter`)) {
        console.log(`   SKIPPED ${name}=${value}: this build has no ${value} adapter`)
        continue
      }
      const missing = needs.filter((key) => !log.includes(key))
      expect(
        missing.length === 0,
        `${name}=${value} without its keys: the refusal does not name ${missing.join(', ')}\n${tail(server)}`,
      )
      console.log(`   ${name}=${value}: all ${needs.length} keys named`)
    }
  },
)
