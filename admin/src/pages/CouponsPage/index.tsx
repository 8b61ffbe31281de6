/**
 * 优惠券 (every role reads; manageCoupons edits and issues): the templates with how many of each were
 * issued, used, expired and are still unused; a template form (the server checks it with the checkout's
 * own rules, src/domain/coupon.ts); an issue dialog for pasted numbers or a segment with its N days.
 */
import { useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { businessTypeLabels, CouponType, couponTypeLabels } from '#domain/enums'
import { formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type { CouponTemplateRow } from '#console-contract/coupons'
import { adminApi } from '../../api'
import IssueDialog from './components/IssueDialog'
import TemplateDialog from './components/TemplateDialog'
import { COUPON_TEMPLATES_KEY } from './components/coupon-templates-key'

const yuan = (fen: number | null) => (fen === null ? '—' : formatYuan(fen))
const faceValue = (row: CouponTemplateRow) =>
  row.couponType === CouponType.discountCoupon ? `${row.parValue / 10}折` : yuan(row.parValue)

export default function CouponsPage({ role }: { role: OperatorRole }) {
  const templates = useQuery({ queryKey: COUPON_TEMPLATES_KEY, queryFn: adminApi.couponTemplates })
  const manage = mayDo(role, 'manageCoupons')

  const columns: ProColumns<CouponTemplateRow>[] = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: '名称',
      dataIndex: 'name',
      render: (_, row) => (row.issueOn === 'welcome' ? `${row.name}（新人券）` : row.name),
    },
    {
      title: '类型',
      dataIndex: 'couponType',
      render: (_, row) => couponTypeLabels[row.couponType as CouponType] ?? row.couponType,
    },
    { title: '面额', dataIndex: 'parValue', render: (_, row) => faceValue(row) },
    { title: '门槛', dataIndex: 'conditionsUse', render: (_, row) => yuan(row.conditionsUse) },
    {
      title: '业务',
      dataIndex: 'businessType',
      render: (_, row) =>
        businessTypeLabels[row.businessType as keyof typeof businessTypeLabels] ?? row.businessType,
    },
    { title: '有效天数', dataIndex: 'validDays' },
    { title: '已发放', dataIndex: 'issued' },
    { title: '已使用', dataIndex: 'used' },
    { title: '已过期', dataIndex: 'expired' },
    { title: '未使用', dataIndex: 'unused' },
  ]
  if (manage) {
    columns.push({
      title: '操作',
      valueType: 'option',
      render: (_, row) => [
        <TemplateDialog key="edit" template={row} />,
        <IssueDialog key="issue" template={row} />,
      ],
    })
  }

  return (
    <ProTable<CouponTemplateRow>
      rowKey="id"
      headerTitle="优惠券模板"
      columns={columns}
      dataSource={templates.data}
      loading={templates.isFetching}
      search={false}
      pagination={false}
      toolBarRender={() => (manage ? [<TemplateDialog key="new" template={null} />] : [])}
      options={{ reload: () => void templates.refetch(), density: false, setting: false }}
    />
  )
}
