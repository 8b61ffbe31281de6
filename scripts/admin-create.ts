/**
 * Creates an operator of the console, the first one above all:
 *
 *   npm run admin:create -- <name> <role>        role: admin | operations | finance | support
 *
 * The password comes from the environment variable ADMIN_PASSWORD, or else is read from stdin (not
 * echoed on a terminal); at least 12 characters. Prints the TOTP secret, its otpauth:// URL and the URL
 * as a QR code for an authenticator app: shown this once. The audit log records it with actor 'cli'.
 * It uses the server's configuration (DATABASE_URL, or the PGlite in DATA_DIR, which only one process
 * may open: stop the server first) and applies the migrations first.
 */
import qrcode from 'qrcode-terminal'
import {
  isOperatorRole,
  OPERATOR_NAME_PATTERN,
  OPERATOR_PASSWORD_MAX,
  OPERATOR_PASSWORD_MIN,
  OPERATOR_PASSWORD_WEAK,
  OPERATOR_ROLES,
  operatorNameKey,
} from '#domain/console/operator-roles'
import { systemClock } from '../server/src/clock'
import { loadConfig } from '../server/src/config'
import { openCliDatabase } from './lib/cli-database'
import { migrateDatabase } from '../server/src/db/migrate'
import { isBizError } from '../server/src/domain/biz-error'
import { OperatorAccountService } from '../server/src/console/services/operator-accounts'
import { OperatorAuditService } from '../server/src/console/services/operator-audit'

const USAGE = `usage: npm run admin:create -- <name> <role>   (role: ${OPERATOR_ROLES.join(' | ')})`

/** A terminal: read key by key without echoing. Anything else (a pipe, a file): its first line. */
function readPassword(): Promise<string> {
  const stdin = process.stdin
  if (!stdin.isTTY) {
    return new Promise((resolve, reject) => {
      let text = ''
      stdin.setEncoding('utf8')
      stdin.on('data', (chunk: string) => (text += chunk))
      stdin.on('end', () => resolve(text.split(/\r?\n/)[0] ?? ''))
      stdin.on('error', reject)
    })
  }
  process.stdout.write('Password (not shown): ')
  return new Promise((resolve, reject) => {
    let text = ''
    stdin.setRawMode(true)
    stdin.setEncoding('utf8')
    const done = (error: Error | null) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      process.stdout.write('\n')
      if (error) reject(error)
      else resolve(text)
    }
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done(null)
        if (char === '\u0003') return done(new Error('Cancelled.'))
        if (char === '\u007f' || char === '\b') text = text.slice(0, -1)
        else text += char
      }
    }
    stdin.on('data', onData)
    stdin.resume()
  })
}

const qrCode = (text: string) =>
  new Promise<string>((resolve) => qrcode.generate(text, { small: true }, resolve))

async function main(args: string[]): Promise<number> {
  const [name, role] = args
  if (args.length !== 2 || !name || !role) {
    console.error(USAGE)
    return 2
  }
  if (!new RegExp(OPERATOR_NAME_PATTERN).test(name)) {
    console.error(
      'The name is 1–32 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    )
    return 2
  }
  if (!isOperatorRole(role)) {
    console.error(`Unknown role ${role}. ${USAGE}`)
    return 2
  }
  const password = process.env.ADMIN_PASSWORD ?? (await readPassword())
  if (password.length < OPERATOR_PASSWORD_MIN || password.length > OPERATOR_PASSWORD_MAX) {
    console.error(`${OPERATOR_PASSWORD_WEAK} (and at most ${OPERATOR_PASSWORD_MAX}).`)
    return 2
  }
  const database = await openCliDatabase(loadConfig())
  try {
    await migrateDatabase(database)
    const ctx = { db: database.db, clock: systemClock }
    const accounts = new OperatorAccountService(ctx, new OperatorAuditService(ctx))
    const created = await accounts.create({ operatorId: null, ip: null }, { name, role, password })
    console.log(
      `Operator ${created.operator.name} (${created.operator.role}) created, id ${created.operator.id}.`,
    )
    console.log('Add it to an authenticator app now: this secret is not shown again.')
    console.log(`TOTP secret: ${created.totpSecret}`)
    console.log(`otpauth URL: ${created.otpauthUrl}`)
    console.log(await qrCode(created.otpauthUrl))
    return 0
  } catch (error) {
    if (isBizError(error)) {
      console.error(`${error.message}: ${operatorNameKey(name)}`)
      return 1
    }
    throw error
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
