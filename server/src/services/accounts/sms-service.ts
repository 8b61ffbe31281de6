import { and, count, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { ResultCode } from '#domain/result-codes'
import { validateMobile, validateSmsCode } from '#domain/validators'
import { SmsSendError } from '../../adapters/sms/sms-adapter'
import { smsCodes } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { maskPhone } from '#domain/formatters'
import { hashSmsCode, newSmsCode } from '../../domain/secrets'
import {
  SMS_CODE_TTL_MS,
  SMS_DAILY_QUOTA,
  SMS_RESEND_INTERVAL_MS,
  MAX_WRONG_GUESSES,
  isSmsType,
  resendWaitSeconds,
  startOfChinaDay,
  type SmsType,
} from '../../domain/sms-policy'
import type { ServiceContext } from '../context'
import {
  PURGE_RUN_BUDGET_MS,
  purgeInBatches,
  timeBudget,
  type PurgeBudget,
  type PurgeTarget,
} from '../../db/purge-batches'

export function assertMobile(mobilePhone: string | undefined): string {
  const problem = validateMobile(mobilePhone)
  if (problem) throw new BizError(ResultCode.PHONE_VERIFICATION_FAILED, problem)
  return mobilePhone!.trim()
}

/** The purge of SMS codes: two days after they were sent. */
export function smsCodePurge(now: Date): PurgeTarget {
  return {
    table: smsCodes,
    due: lt(smsCodes.createdAt, new Date(now.getTime() - 2 * 86_400_000)),
    key: smsCodes.createdAt,
  }
}

export class SmsService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * Checks the resend interval and daily quota and reserves the code under a per-number lock, then
   * calls the provider outside the transaction (a slow provider must not hold the database); when the
   * provider fails the reservation is deleted, so nothing is stored and no quota is used.
   */
  async send(mobilePhone: string, type: string) {
    if (!isSmsType(type)) throw new BizError(ResultCode.SMS_TYPE_FAILED)
    const mobile = assertMobile(mobilePhone)
    const now = this.ctx.clock.now()
    const code = newSmsCode()

    const reservedId = await this.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${mobile}`}))`)
      const [last] = await tx
        .select({ createdAt: smsCodes.createdAt })
        .from(smsCodes)
        .where(and(eq(smsCodes.mobilePhone, mobile), eq(smsCodes.type, type)))
        .orderBy(desc(smsCodes.createdAt))
        .limit(1)
      const wait = resendWaitSeconds(last?.createdAt ?? null, now)
      if (wait > 0) {
        throw new BizError(ResultCode.SMS_NEED_NOT_RESEND, `验证码已发送，请${wait}秒后再试`)
      }
      const [{ sentToday }] = await tx
        .select({ sentToday: count() })
        .from(smsCodes)
        .where(and(eq(smsCodes.mobilePhone, mobile), gte(smsCodes.createdAt, startOfChinaDay(now))))
      if (sentToday >= SMS_DAILY_QUOTA) throw new BizError(ResultCode.SMS_DAILY_QUOTA_USED)
      const [row] = await tx
        .insert(smsCodes)
        .values({
          mobilePhone: mobile,
          type,
          codeHash: hashSmsCode(mobile, type, code),
          createdAt: now,
          expiresAt: new Date(now.getTime() + SMS_CODE_TTL_MS),
        })
        .returning({ id: smsCodes.id })
      return row.id
    })

    try {
      await this.ctx.sms.sendCode({ mobilePhone: mobile, type, code })
    } catch (error) {
      await this.ctx.db.delete(smsCodes).where(eq(smsCodes.id, reservedId))
      if (error instanceof SmsSendError) {
        this.ctx.log.warn(
          { mobile: maskPhone(mobile), type, err: error.message },
          'sms send failed',
        )
        throw new BizError(ResultCode.SMS_SEND_FAILED)
      }
      throw error
    }
    return { resendAfter: SMS_RESEND_INTERVAL_MS / 1000, expiresIn: SMS_CODE_TTL_MS / 1000 }
  }

  /**
   * Consumes a code: right number, type and digits, not expired, not used. Wrong guesses count against
   * the newest live code. Call it outside any transaction: a rollback must not undo a counted guess.
   */
  async consume(mobilePhone: string, type: SmsType, code: string | undefined): Promise<void> {
    const db = this.ctx.db
    if (code == null || code.trim() === '') throw new BizError(ResultCode.VERIFICATION_CODE_EMPTY)
    const formatProblem = validateSmsCode(code)
    if (formatProblem) throw new BizError(ResultCode.VERIFICATION_CODE_WRONG, formatProblem)
    const now = this.ctx.clock.now()
    const live = and(
      eq(smsCodes.mobilePhone, mobilePhone),
      eq(smsCodes.type, type),
      isNull(smsCodes.usedAt),
      gt(smsCodes.expiresAt, now),
    )
    const [used] = await db
      .update(smsCodes)
      .set({ usedAt: now })
      .where(and(live, eq(smsCodes.codeHash, hashSmsCode(mobilePhone, type, code))))
      .returning({ id: smsCodes.id })
    if (used) return

    // One conditional update counts the guess against the newest live code: the row's own conditions
    // (still live, fewer than MAX_WRONG_GUESSES) are checked again under its row lock, so concurrent
    // wrong guesses count exactly up to the limit and the one that reaches it burns the code.
    const newest = alias(smsCodes, 'newest')
    await db
      .update(smsCodes)
      .set({
        failedAttempts: sql`${smsCodes.failedAttempts} + 1`,
        usedAt: sql`case when ${smsCodes.failedAttempts} + 1 >= ${MAX_WRONG_GUESSES} then ${now.toISOString()}::timestamptz else null end`,
      })
      .where(
        and(
          live,
          lt(smsCodes.failedAttempts, MAX_WRONG_GUESSES),
          eq(
            smsCodes.id,
            db
              .select({ id: newest.id })
              .from(newest)
              .where(
                and(
                  eq(newest.mobilePhone, mobilePhone),
                  eq(newest.type, type),
                  isNull(newest.usedAt),
                  gt(newest.expiresAt, now),
                ),
              )
              .orderBy(desc(newest.createdAt))
              .limit(1),
          ),
        ),
      )
    throw new BizError(ResultCode.VERIFICATION_CODE_WRONG)
  }

  /** Housekeeping: codes older than a day matter neither for expiry nor for the daily quota. */
  /** Codes two days old (in batches, purge-batches.ts). */
  async purgeOld(
    now: Date,
    budget: PurgeBudget = timeBudget(PURGE_RUN_BUDGET_MS),
  ): Promise<number> {
    return (await purgeInBatches(this.ctx.db, smsCodePurge(now), { budget })).deleted
  }
}
