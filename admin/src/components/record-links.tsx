/**
 * How the console names a record and opens it: a user by masked number + nickname, an order by its CP…
 * number, a phone by its name, a coupon template by its name, goods by name + duration; each a link to
 * the page where it is seen.
 */
import { durationLabel } from '#domain/catalogue'
import { maskPhone } from '#domain/formatters'
import { CONSOLE_PATHS } from '../paths'
import ConsoleLink from './ConsoleLink'

/** 138****5678 王小明; a deleted account says so; a user with neither shows as 用户 <id>. */
export function userLabel(user: { id: number; mobile: string | null; name: string | null }) {
  const parts = [user.mobile ? maskPhone(user.mobile) : '（已注销）', user.name?.trim()].filter(
    Boolean,
  )
  return user.mobile === null && !user.name?.trim() ? `用户 ${user.id}（已注销）` : parts.join(' ')
}

export interface UserRef {
  id: number
  mobile: string | null
  name: string | null
}

export function UserLink({ inText, ...user }: UserRef & { inText?: boolean }) {
  return (
    <ConsoleLink to={`${CONSOLE_PATHS.users}/${user.id}`} inText={inText}>
      {userLabel(user)}
    </ConsoleLink>
  )
}

/** A table column showing each row's user, linked. */
export const userColumn = <T,>(title: string, user: (row: T) => UserRef) => ({
  title,
  key: title,
  render: (_: unknown, row: T) => <UserLink {...user(row)} />,
})

/** 授权给 / 转给 / 来自 and the user, linked. */
export const toOrFrom = (words: string, user: UserRef) => (
  <>
    {words} <UserLink {...user} inText />
  </>
)

export function OrderLink({ id, orderNo }: { id: number; orderNo: string | null }) {
  return <ConsoleLink to={`${CONSOLE_PATHS.orders}/${id}`}>{orderNo ?? `订单 ${id}`}</ConsoleLink>
}

export function DeviceLink({
  id,
  name,
  inText,
}: {
  id: number
  name: string | null
  inText?: boolean
}) {
  return (
    <ConsoleLink to={`${CONSOLE_PATHS.devices}/${id}`} inText={inText}>
      {name || `云手机 ${id}`}
    </ConsoleLink>
  )
}

/** Templates are edited on 优惠券; the link opens it. */
export function CouponTemplateLink({ name }: { id: number; name: string | null }) {
  return <ConsoleLink to={CONSOLE_PATHS.coupons}>{name ?? '已删除的模板'}</ConsoleLink>
}

/** Goods are priced and stocked on 商品与价格; with a duration, 'name · 1个月'. */
export function GoodsLink({
  name,
  days,
  inText,
}: {
  name: string | null
  days?: number | null
  inText?: boolean
}) {
  const text = `${name ?? '已删除的商品'}${days ? ` · ${durationLabel(days)}` : ''}`
  return (
    <ConsoleLink to={CONSOLE_PATHS.catalogue} inText={inText}>
      {text}
    </ConsoleLink>
  )
}
