import { sql } from 'drizzle-orm'
import type { UserFlux } from '../../contract/flux'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import {
  accountBalances,
  beanAccounts,
  devices,
  fleetVersions,
  orders,
  spaceTasks,
} from '../../db/schema'
import { OrderStatus } from '#domain/order-states'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { ServiceContext } from '../context'

/**
 * "What of mine is in flux": one prepared statement of six subqueries, each read from a small partial
 * index of the rows in flux (migration 0037) or one row by its key — so it costs the same for one phone
 * or 10,000 — and all in one snapshot, so a delivery is never seen half done (the order gone, its
 * phones not yet there).
 */
function build(db: Db) {
  const userId = sql.placeholder('userId')
  return db
    .select({
      fleetVersion: sql<number>`coalesce((select ${fleetVersions.version} from ${fleetVersions}
        where ${fleetVersions.userId} = ${userId}), 0)`.mapWith(Number),
      walletVersion: sql<number>`coalesce((select ${beanAccounts.version} from ${beanAccounts}
          where ${beanAccounts.userId} = ${userId}), 0)
        + coalesce((select ${accountBalances.version} from ${accountBalances}
          where ${accountBalances.userId} = ${userId}), 0)`.mapWith(Number),
      paidOrders: sql<UserFlux['paidOrders']>`(select coalesce(json_agg(json_build_object(
          'orderNo', ${orders.orderNo}, 'kind', ${orders.kind}, 'quantity', ${orders.quantity})
          order by ${orders.id}), '[]') from ${orders}
        where ${orders.userId} = ${userId} and ${orders.status} = ${sql.raw(String(OrderStatus.paid))})`,
      busyPhones: sql<number>`(select count(*) from ${devices} where ${devices.userId} = ${userId}
        and (status in (${sql.raw(`${DeviceStatus.creating}, ${DeviceStatus.rebooting}`)})
          or busy_op is not null))`.mapWith(Number),
      runningTasks: sql<
        number[]
      >`(select coalesce(json_agg(${spaceTasks.id} order by ${spaceTasks.id}),
        '[]') from ${spaceTasks} where ${spaceTasks.userId} = ${userId}
        and ${spaceTasks.status} = 'running')`,
    })
    .from(sql`(select 1) as one`)
}

export class UserFluxService {
  constructor(private readonly ctx: ServiceContext) {}

  async read(userId: number): Promise<UserFlux> {
    const statement = preparedOn(this.ctx.db, 'user_flux', build)
    const [row] = await statement.execute({ userId })
    return {
      fleetVersion: row.fleetVersion,
      walletVersion: row.walletVersion,
      paidOrders: row.paidOrders,
      busyPhones: row.busyPhones,
      runningTasks: row.runningTasks.map(Number),
    }
  }
}
