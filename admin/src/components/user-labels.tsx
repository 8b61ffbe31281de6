/** What the 用户 list and a user's page both show: users' fields as operators read them. */
import { Badge } from 'antd'
import { UserType } from '#domain/enums'

/** users.companyStatus as operators read it. */
export const COMPANY_STATUS_LABELS: Record<number, string> = {
  0: '未申请',
  1: '待审核',
  2: '已认证',
  3: '已驳回',
}
export const USER_TYPE_LABELS: Record<number, string> = {
  [UserType.personal]: '个人',
  [UserType.company]: '企业',
}

export function FrozenBadge({ frozen }: { frozen: boolean }) {
  return frozen ? <Badge status="error" text="已冻结" /> : <Badge status="success" text="正常" />
}
