#!/usr/bin/env node
/**
 * The steps of docs/deploy.md, run on this machine in production mode (started by scripts/deploy-check,
 * which switches to the unprivileged service user first). It makes a throwaway PostgreSQL cluster on a
 * free port of 127.0.0.1, and checks:
 *   1. production refuses to start with nothing set, naming in one error every variable deploy.md's
 *      table marks "required", and nothing deploy.md does not name;
 *   2. two instances started at once on one database run the migrations once (the migration lock) as the
 *      app's own role, no superuser, then refuse ACEP a catalogue without ACEP ids, naming every goods
 *      on sale and every zone; the operator's SQL maps them;
 *   3. the two instances start again, /health answers on both, and a user who logs in through instance 1
 *      (SMS code from its log, behind X-Forwarded-For) is seen by 2;
 *   3b. deploy.md's nginx block in front of both (TLS with a throwaway certificate, HTTP/2, http → https,
 *      both upstreams, X-Forwarded-For, both notify paths, the body limit); the providers' fakes then send
 *      their notifications and callbacks through it. Without nginx it is SKIPPED, except under CI
 *      (CI=true), where a missing nginx fails the check at step 0;
 *   3c. that user buys a phone and pays with Alipay (the WAP checkout opened, the fake pays and notifies),
 *      and another with WeChat Pay H5: both orders complete and both phones run on the fake ACEP, as
 *      instance 2 tells; with nginx, both notifications are in its access log;
 *   3d. with nginx: instance 2 stops (exit 0 on SIGTERM) and nginx sends requests and notifications to
 *      instance 1 alone;
 *   4. pg_dump → restore into a scratch database → a third server starts on it and the session is there;
 *   5. scripts/weapp-domains.mjs prints the configured domains and refuses the development defaults;
 * and that every server (and the fakes) stops cleanly on SIGTERM. Any failure prints what was expected,
 * the tail of the server's log, and exits 1; the servers, the fakes and the cluster are removed whatever
 * happens.
 *
 * Environment: PG_BIN (PostgreSQL's bin directory; scripts/deploy-check finds it), NGINX_BIN (optional:
 * Environment: PG_BIN (PostgreSQL's bin directory; scripts/deploy-check finds it), NGINX_BIN (optional:
 * else nginx on the PATH or in /usr/sbin), CI (set and not "false"/"0": nginx is required).
 *
 * The steps and their parts are in scripts/lib/deploy-check/ (steps/ holds one file per family).
 */
import os from 'node:os'

import { CheckFailed } from './lib/deploy-check/check.mjs'
import { seconds } from './lib/deploy-check/context.mjs'
import { cleanup, work } from './lib/deploy-check/processes.mjs'
import { dumpRestores } from './lib/deploy-check/steps/backup.mjs'
import {
  bothStartAndShareALogin,
  migrateThenMapCatalogue,
} from './lib/deploy-check/steps/instances.mjs'
import { miniProgramDomains } from './lib/deploy-check/steps/mini-program-domains.mjs'
import { payWithAlipayAndWechatPay } from './lib/deploy-check/steps/payments.mjs'
import {
  instanceOneAloneBehindNginx,
  nginxForSection6,
  nginxInFrontOfBoth,
} from './lib/deploy-check/steps/proxy.mjs'
import {
  refusesProvidersWithoutKeys,
  refusesWithNothingSet,
} from './lib/deploy-check/steps/refusals.mjs'
import { everyServerStopsCleanly } from './lib/deploy-check/steps/shutdown.mjs'

const steps = [
  nginxForSection6, // 0
  refusesWithNothingSet, // 1
  refusesProvidersWithoutKeys, // 1b
  migrateThenMapCatalogue, // 2
  bothStartAndShareALogin, // 3
  nginxInFrontOfBoth, // 3b
  payWithAlipayAndWechatPay, // 3c
  instanceOneAloneBehindNginx, // 3d
  dumpRestores, // 4
  miniProgramDomains, // 5
  everyServerStopsCleanly,
]

console.log(`deploy-check as ${os.userInfo().username} (uid ${process.getuid()}), work dir ${work}`)
for (const { name, fn } of steps) {
  console.log(`== [${seconds()} s] ${name}`)
  try {
    await fn()
  } catch (error) {
    console.error(
      `\nDEPLOY CHECK FAILED at "${name}" after ${seconds()} s:\n${error instanceof CheckFailed ? error.message : error.stack}`,
    )
    cleanup()
    process.exit(1)
  }
}
cleanup()
console.log(`deploy-check passed in ${seconds()} s`)
process.exit(0) // without waiting for the time limits' timers
