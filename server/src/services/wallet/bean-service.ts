import type { Db } from '../../db/client'
import type { ServiceContext } from '../context'
import { balanceOf, BEANS, credit, debit } from './ledger'

export type BeanReason = 'order' | 'recharge' | 'refund' | 'grant' | 'timeToMonth'

/** Why a balance changed, as the ledger row records it. */
export interface BeanEntry {
  reason: BeanReason
  orderId?: number
  remark?: string
}

/**
 * Cloud beans (1 bean = 1 fen when paying), kept in the BEANS book of ./ledger: every balance change
 * writes its ledger row in the caller's transaction, and a debit can never take the balance below zero.
 */
export class BeanService {
  constructor(private readonly ctx: ServiceContext) {}

  balance(userId: number, db: Db): Promise<number> {
    return balanceOf(db, BEANS, userId)
  }

  credit(tx: Db, userId: number, amount: number, entry: BeanEntry): Promise<number> {
    return credit(tx, BEANS, userId, amount, entry, this.ctx.clock.now())
  }

  /** Takes `amount` beans or throws 1015 without changing anything. */
  debit(tx: Db, userId: number, amount: number, entry: BeanEntry): Promise<number> {
    return debit(tx, BEANS, userId, amount, entry, this.ctx.clock.now())
  }
}
