/**
 * 操作日志 in the operator's words: the target by name with a link to its page, and what changed as a
 * sentence — Chinese field labels, amounts in 元, statuses and pay methods by name, phones, goods and
 * zones by name (the server reads the names with the log, AuditRow.targetName/refNames).
 */
import { Fragment, type ReactNode } from 'react'
import { deviceStatusLabels, type DeviceStatus } from '#domain/device-lifecycle'
import { businessTypeLabels, CouponType, couponTypeLabels } from '#domain/enums'
import { formatYuan } from '#domain/formatters'
import { isOperatorRole, OPERATOR_ROLE_LABELS } from '#domain/console/operator-roles'
import { orderStatusLabels, payMethodLabels, type OrderStatus } from '#domain/order-status'
import { COMMON_CONFIG_FIELDS } from '#domain/console/settings-edits'
import type { AuditRow } from '#console-contract'
import { beijingTime } from '../../../components/beijing-time'
import { JOB_STATUS_LABELS, jobKindLabel } from '../../../components/device-labels'
import ConsoleLink from '../../../components/ConsoleLink'
import {
  CouponTemplateLink,
  DeviceLink,
  GoodsLink,
  OrderLink,
  UserLink,
} from '../../../components/record-links'
import { CONSOLE_PATHS } from '../../../paths'

export const TARGET_LABELS: Record<string, string> = {
  operator: '操作员',
  session: '会话',
  user: '用户',
  order: '订单',
  goods: '商品',
  goods_price: '价格',
  goods_stock: '库存',
  zone: '地区',
  supplier_catalogue: '供应商映射',
  device: '云手机',
  job: '任务',
  couponTemplate: '优惠券模板',
  operatorMessage: '群发消息',
  common_config: '通用配置',
  activity: '活动',
  seckill_item: '秒杀商品',
}

/** Every field the log's rows carry, by its console name; one not here shows as it is. */
export const FIELD_LABELS: Record<string, string> = {
  id: 'ID',
  name: '名称',
  role: '角色',
  createdAt: '创建时间',
  disabledAt: '停用时间',
  frozen: '冻结',
  reason: '原因',
  companyName: '公司名称',
  companyStatus: '企业认证',
  userType: '用户类型',
  goodId: '商品',
  zoneId: '地区',
  goodPrice: '售价',
  oldGoodPrice: '划线价',
  firstPurchasePrice: '首购价',
  firstCount: '首购数量',
  activityPrice: '活动价',
  activityEndsAt: '活动结束',
  onSale: '在售',
  free: '可售库存',
  held: '待支付占用',
  configName: '配置',
  version: '版本',
  status: '状态',
  amount: '金额',
  payMethod: '支付方式',
  releasedPhones: '释放的云手机',
  failReason: '失败原因',
  opSeq: '操作序号',
  instanceId: '实例',
  expireAt: '到期时间',
  kind: '类型',
  attempts: '已尝试次数',
  couponType: '券类型',
  parValue: '面值',
  conditionsUse: '使用门槛',
  businessType: '适用业务',
  scopeApplications: '适用范围',
  applicableObjects: '适用对象',
  effectiveScope: '生效范围',
  validDays: '有效天数',
  requestId: '请求号',
  target: '发放对象',
  issued: '发放人数',
  operatorMessageId: '消息',
  title: '标题',
  summary: '简介',
  startsAt: '开始时间',
  endsAt: '结束时间',
  enabled: '启用',
  lastUserId: '送达至用户',
  price: '秒杀价',
  stock: '总库存',
  sort: '排序',
  sold: '已售',
  activityId: '活动',
  remoteId: '供应商ID',
  filter: '筛选条件',
  otherSessionsEnded: '退出的其他登录',
  ...Object.fromEntries(
    Object.entries(COMMON_CONFIG_FIELDS).map(([field, { label }]) => [field, label]),
  ),
}
/** A field by its console name; an operator's `name` is its 账号. */
export const fieldLabel = (field: string, row?: AuditRow) =>
  field === 'name' && row?.targetType === 'operator' ? '账号' : (FIELD_LABELS[field] ?? field)

const FEN_FIELDS = new Set([
  'goodPrice',
  'oldGoodPrice',
  'firstPurchasePrice',
  'activityPrice',
  'amount',
  'price',
  'conditionsUse',
])

const ISSUE_TARGETS: Record<string, string> = {
  numbers: '指定手机号',
  newUsers: '新用户',
  expiringPhones: '云手机即将到期的用户',
}

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value))

/** A value of one field of `row` as an operator reads it. */
export function shownValue(row: AuditRow, field: string, value: unknown): ReactNode {
  if (value === null) return '无'
  if (typeof value === 'boolean') {
    if (field === 'onSale') return value ? '在售' : '停售'
    return value ? '是' : '否'
  }
  if (typeof value === 'number') {
    if (field.endsWith('At')) return beijingTime(value)
    if (FEN_FIELDS.has(field)) return formatYuan(value)
    if (field === 'parValue') {
      return row.after &&
        (row.after as { couponType?: number }).couponType === CouponType.discountCoupon
        ? `${value / 10}折`
        : formatYuan(value)
    }
    if (field === 'payMethod') return payMethodLabels[value as 1] ?? value
    if (field === 'couponType') return couponTypeLabels[value as 1] ?? value
    if (field === 'businessType') return businessTypeLabels[value as 1] ?? value
    if (field === 'status') {
      if (row.targetType === 'order') return orderStatusLabels[value as OrderStatus] ?? value
      if (row.targetType === 'device') return deviceStatusLabels[value as DeviceStatus] ?? value
    }
    if (field === 'goodId') return row.refNames[`goods:${value}`] ?? `商品 ${value}`
    if (field === 'zoneId') return row.refNames[`zone:${value}`] ?? `地区 ${value}`
    if (field === 'validDays') return `${value} 天`
    return String(value)
  }
  if (typeof value === 'string') {
    if (field === 'status' && row.targetType === 'job') return JOB_STATUS_LABELS[value] ?? value
    if (field === 'kind' && row.targetType === 'job') return jobKindLabel(value)
    if (field === 'role' && isOperatorRole(value)) return OPERATOR_ROLE_LABELS[value]
    return value
  }
  if (field === 'releasedPhones' && Array.isArray(value)) {
    if (value.length === 0) return '无'
    return value.map((id: number, i) => (
      <Fragment key={id}>
        {i > 0 ? '、' : null}
        <DeviceLink id={id} name={row.refNames[`device:${id}`] ?? null} inText />
      </Fragment>
    ))
  }
  if (field === 'target' && typeof value === 'object') {
    const target = value as { kind?: string; count?: number; days?: number }
    const who = ISSUE_TARGETS[target.kind ?? ''] ?? target.kind
    if (target.count !== undefined) return `${who} ${target.count} 个`
    if (target.days !== undefined) return `${who}（${target.days} 天内）`
    return who
  }
  return json(value)
}

export interface Change {
  field: string
  before: unknown
  after: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Field by field for two objects (only what differs, and what only one side has); the whole otherwise. */
export function changes(before: unknown, after: unknown): Change[] {
  if ((isRecord(before) || before == null) && (isRecord(after) || after == null)) {
    const was = before ?? {}
    const is = after ?? {}
    const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])]
    return fields
      .filter((field) => json(was[field]) !== json(is[field]))
      .map((field) => ({ field, before: was[field], after: is[field] }))
  }
  return json(before) === json(after) ? [] : [{ field: '（整体）', before, after }]
}

/** Fields that are the row's bookkeeping, not what the operator changed. */
const QUIET = new Set(['id', 'version', 'opSeq', 'requestId', 'lastUserId'])

/**
 * What changed, as one sentence: 状态由「已完成」改为「已退款」，金额 ¥10.00，支付方式 支付宝，原因 …
 * A field only before says what it was then; one only after says what it became.
 */
export function ChangeSentence({ row }: { row: AuditRow }) {
  // the status first (the database keeps JSON keys in its own order, not the writer's)
  const parts = changes(row.before, row.after)
    .filter((change) => !QUIET.has(change.field))
    .sort((a, b) => Number(b.field === 'status') - Number(a.field === 'status'))
  if (parts.length === 0) return <>—</>
  return (
    <>
      {parts.map((change, i) => (
        <Fragment key={change.field}>
          {i > 0 ? '，' : null}
          {change.before !== undefined && change.after !== undefined ? (
            <>
              {fieldLabel(change.field, row)}由「{shownValue(row, change.field, change.before)}
              」改为「
              {shownValue(row, change.field, change.after)}」
            </>
          ) : (
            <>
              {fieldLabel(change.field, row)}{' '}
              {shownValue(
                row,
                change.field,
                change.after === undefined ? change.before : change.after,
              )}
            </>
          )}
        </Fragment>
      ))}
      。
    </>
  )
}

/** The target: its kind, then its name linked to its page (`#id` only where it has no name). */
export function AuditTarget({ row }: { row: AuditRow }) {
  const kind = TARGET_LABELS[row.targetType] ?? row.targetType
  const id = row.targetId === null ? null : Number(row.targetId)
  const named = (node: ReactNode) => (
    <>
      {kind} {node}
    </>
  )
  if (row.targetId === null) return <>{kind}</>
  switch (row.targetType) {
    case 'user':
      return named(<UserLink id={id!} mobile={row.targetMobile} name={row.targetName} />)
    case 'order':
      return named(<OrderLink id={id!} orderNo={row.targetName} />)
    case 'device':
      return named(<DeviceLink id={id!} name={row.targetName} />)
    case 'couponTemplate':
      return named(<CouponTemplateLink id={id!} name={row.targetName} />)
    case 'goods':
    case 'goods_price':
      return named(<GoodsLink name={row.targetName} days={row.targetDays} />)
    case 'goods_stock': {
      const [goodId, zoneId] = row.targetId.split(':')
      const goods = row.refNames[`goods:${goodId}`] ?? `商品 ${goodId}`
      const zone = row.refNames[`zone:${zoneId}`] ?? `地区 ${zoneId}`
      return named(<ConsoleLink to={CONSOLE_PATHS.catalogue}>{`${goods} · ${zone}`}</ConsoleLink>)
    }
    case 'zone':
      return named(
        <ConsoleLink to={CONSOLE_PATHS.catalogue}>{row.targetName ?? row.targetId}</ConsoleLink>,
      )
    case 'operator':
      return named(
        <ConsoleLink to="/admin/operators">{row.targetName ?? `#${row.targetId}`}</ConsoleLink>,
      )
    case 'job':
      return named(<ConsoleLink to={CONSOLE_PATHS.jobs}>#{row.targetId}</ConsoleLink>)
    case 'activity':
    case 'seckill_item':
      return named(
        <ConsoleLink to="/admin/settings">{row.targetName ?? `#${row.targetId}`}</ConsoleLink>,
      )
    case 'operatorMessage':
      return named(<ConsoleLink to="/admin/messages">#{row.targetId}</ConsoleLink>)
    default:
      return named(row.targetId)
  }
}
