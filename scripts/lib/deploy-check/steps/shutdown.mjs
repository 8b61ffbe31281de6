/** The last step: every server and the fakes stop cleanly; /health fails once the database is gone. */
import path from 'node:path'

import { expect, step } from '../check.mjs'
import { PG_BIN, state } from '../context.mjs'
import { http, run, stopServer } from '../processes.mjs'

export const everyServerStopsCleanly = step(
  'every server stops cleanly on SIGTERM; /health fails without the database',
  async () => {
    const [one, ...others] = state.servers
    await Promise.all([...others, state.fakes].map(stopServer))
    // section 7: the check a load balancer runs must fail when the instance cannot reach its database
    run(path.join(PG_BIN, 'pg_ctl'), ['-D', state.cluster.dataDir, '-m', 'fast', '-w', 'stop'])
    const reply = await http(one, 'GET', '/health')
    expect(
      reply.status >= 500 && reply.code !== 200,
      `/health answered ${reply.status} ${JSON.stringify(reply)} with the database stopped`,
    )
    await stopServer(one)
    console.log(`   /health answered HTTP ${reply.status} with the database stopped`)
  },
)
