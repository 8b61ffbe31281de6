import { and, asc, eq, isNull, lt, ne, or } from 'drizzle-orm'
import { OperatorCode } from '#domain/result-codes'
import { operatorNameKey, type OperatorRole } from '#domain/console/operator-roles'
import type { CreatedOperator, OperatorRow } from '../contract'
import type { Db } from '../../db/client'
import { operators, operatorSessions } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { isUniqueViolation, type ServiceContext } from '../../services/context'
import type { OperatorAuditService } from './operator-audit'
import { acceptedTotpStep, newTotpSecret, otpauthUrl } from './operator-totp'
import { hashPassword, verifyPassword } from '../../services/accounts'

type Operator = typeof operators.$inferSelect

/** An operator as the console and the audit log see it: never its password hash or TOTP secret. */
export const operatorRow = (operator: Operator): OperatorRow => ({
  id: operator.id,
  name: operator.name,
  role: operator.role as OperatorRole,
  disabledAt: operator.disabledAt?.getTime() ?? null,
  createdAt: operator.createdAt.getTime(),
})

/** Who acts: an operator (by id) from a request's IP, or admin:create on the command line (null). */
export interface Actor {
  operatorId: number | null
  ip: string | null
}

/**
 * Operator accounts: created by an admin (or admin:create), disabled and enabled by an admin, each
 * operator's own password. Every change writes its audit row in the same transaction.
 */
export class OperatorAccountService {
  constructor(
    /** db and clock only: admin:create runs it without the server's adapters. */
    private readonly ctx: Pick<ServiceContext, 'db' | 'clock'>,
    private readonly audit: OperatorAuditService,
  ) {}

  async list(): Promise<OperatorRow[]> {
    const rows = await this.ctx.db.select().from(operators).orderBy(asc(operators.id))
    return rows.map(operatorRow)
  }

  /** The name is stored in lower case; a taken name (in any case) is refused. */
  async create(
    actor: Actor,
    input: { name: string; role: OperatorRole; password: string },
  ): Promise<CreatedOperator> {
    const name = operatorNameKey(input.name)
    const totpSecret = newTotpSecret()
    const passwordHash = await hashPassword(input.password)
    try {
      const created = await this.ctx.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(operators)
          .values({
            name,
            role: input.role,
            passwordHash,
            totpSecret,
            createdAt: this.ctx.clock.now(),
          })
          .returning()
        await this.audit.record(tx, {
          ...actor,
          action: 'operator.create',
          targetType: 'operator',
          targetId: row.id,
          after: operatorRow(row),
        })
        return row
      })
      return {
        operator: operatorRow(created),
        totpSecret,
        otpauthUrl: otpauthUrl(name, totpSecret),
      }
    } catch (error) {
      if (isUniqueViolation(error, ['operators_name_key'])) {
        throw new BizError(OperatorCode.NAME_TAKEN)
      }
      throw error
    }
  }

  /** Disabling ends every session of the operator at once; an admin cannot disable themselves. */
  setDisabled(actor: Actor, id: number, disabled: boolean): Promise<OperatorRow> {
    if (disabled && actor.operatorId === id) throw new BizError(OperatorCode.CANNOT_DISABLE_SELF)
    return this.ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(operators).where(eq(operators.id, id)).for('update')
      if (!before) throw new BizError(OperatorCode.OPERATOR_NOT_FOUND)
      const [after] = await tx
        .update(operators)
        .set({ disabledAt: disabled ? (before.disabledAt ?? this.ctx.clock.now()) : null })
        .where(eq(operators.id, id))
        .returning()
      if (disabled) await tx.delete(operatorSessions).where(eq(operatorSessions.operatorId, id))
      await this.audit.record(tx, {
        ...actor,
        action: disabled ? 'operator.disable' : 'operator.enable',
        targetType: 'operator',
        targetId: id,
        before: operatorRow(before),
        after: operatorRow(after),
      })
      return operatorRow(after)
    })
  }

  /**
   * One's own password, with the current password and a fresh TOTP code (used once, like a sign-in's).
   * Every other session of the operator ends; `keepSession` (the caller's session hash) stays.
   */
  async changePassword(
    actor: Actor & { operatorId: number },
    keepSession: string,
    input: { currentPassword: string; newPassword: string; totp: string },
  ): Promise<void> {
    const now = this.ctx.clock.now()
    const [operator] = await this.ctx.db
      .select()
      .from(operators)
      .where(eq(operators.id, actor.operatorId))
    const step =
      operator && acceptedTotpStep(operator.totpSecret, input.totp, now, operator.lastTotpStep)
    const passwordOk =
      operator && (await verifyPassword(operator.passwordHash, input.currentPassword))
    if (!operator || !passwordOk || step === null)
      throw new BizError(OperatorCode.CREDENTIALS_WRONG)
    const passwordHash = await hashPassword(input.newPassword)
    await this.ctx.db.transaction(async (tx) => {
      if (!(await takeTotpStep(tx, operator.id, step))) {
        throw new BizError(OperatorCode.CREDENTIALS_WRONG)
      }
      await tx.update(operators).set({ passwordHash }).where(eq(operators.id, operator.id))
      const ended = await tx
        .delete(operatorSessions)
        .where(
          and(
            eq(operatorSessions.operatorId, operator.id),
            ne(operatorSessions.tokenHash, keepSession),
          ),
        )
        .returning({ tokenHash: operatorSessions.tokenHash })
      await this.audit.record(tx, {
        ...actor,
        action: 'operator.password',
        targetType: 'operator',
        targetId: operator.id,
        after: { otherSessionsEnded: ended.length },
      })
    })
  }
}

/**
 * Records `step` as the operator's last TOTP step unless a code of that step (or later) was already
 * used: one conditional update, so two requests racing with the same code cannot both pass. The codes
 * tried since the last one accepted are counted afresh (operator-sessions.ts takeTotpGuess).
 */
export async function takeTotpStep(tx: Db, operatorId: number, step: number): Promise<boolean> {
  const taken = await tx
    .update(operators)
    .set({ lastTotpStep: step, totpGuesses: 0, totpGuessesSince: null })
    .where(
      and(
        eq(operators.id, operatorId),
        or(isNull(operators.lastTotpStep), lt(operators.lastTotpStep, step)),
      ),
    )
    .returning({ id: operators.id })
  return taken.length === 1
}
