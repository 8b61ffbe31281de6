/**
 * Operators decide company-buyer requests here until the operator console exists:
 *
 *   npm run company:verify                       lists the requests waiting for a decision
 *   npm run company:verify -- <mobile|userId>    verifies one (the user becomes a company buyer)
 *   npm run company:verify -- <mobile|userId> --reject
 *
 * The console's 用户 page decides the same way (console/services/users.ts companyDecision); a decision here
 * is in the operator audit log as the command line's ('cli').
 *
 * It uses the server's configuration (DATABASE_URL, or the PGlite in DATA_DIR, which only one process
 * may open: stop the server first).
 */
import { and, asc, eq, isNull, or } from 'drizzle-orm'
import { loadConfig } from '../server/src/config'
import { openCliDatabase } from './lib/cli-database'
import { migrateDatabase } from '../server/src/db/migrate'
import { users } from '../server/src/db/schema'
import { systemClock } from '../server/src/clock'
import { isBizError } from '../server/src/domain/biz-error'
import { OperatorCode } from '#domain/result-codes'
import { companyDecision } from '../server/src/console/services/users'
import { OperatorAuditService } from '../server/src/console/services/operator-audit'
import { CompanyStatus } from '../server/src/services/accounts/profile-service'

async function main(args: string[]) {
  const who = args.find((arg) => !arg.startsWith('--'))
  const reject = args.includes('--reject')
  const database = await openCliDatabase(loadConfig())
  try {
    await migrateDatabase(database)
    const { db } = database
    if (!who) {
      const waiting = await db
        .select({ id: users.id, mobile: users.mobilePhone, company: users.companyName })
        .from(users)
        .where(and(eq(users.companyStatus, CompanyStatus.requested), isNull(users.deletedAt)))
        .orderBy(asc(users.id))
      if (waiting.length === 0) console.log('No company requests are waiting.')
      for (const row of waiting) console.log(`${row.id}\t${row.mobile ?? ''}\t${row.company ?? ''}`)
      return 0
    }
    const [user] = await db
      .select({ id: users.id, company: users.companyName })
      .from(users)
      .where(
        and(
          isNull(users.deletedAt),
          /^\d{1,9}$/.test(who)
            ? or(eq(users.id, Number(who)), eq(users.mobilePhone, who))
            : eq(users.mobilePhone, who),
        ),
      )
    if (!user) {
      console.error(`No user ${who}.`)
      return 1
    }
    const ctx = { db, clock: systemClock }
    try {
      await companyDecision(
        ctx,
        new OperatorAuditService(ctx),
        { operatorId: null, ip: null },
        user.id,
        !reject,
        undefined,
      )
    } catch (error) {
      if (!isBizError(error) || error.code !== OperatorCode.NO_COMPANY_REQUEST) throw error
      console.error(`User ${user.id} has no company request waiting for a decision.`)
      return 1
    }
    console.log(`User ${user.id} (${user.company ?? ''}): ${reject ? 'rejected' : 'verified'}.`)
    return 0
  } finally {
    await database.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message)
    process.exit(1)
  },
)
