/**
 * 优惠券 (every role reads; manageCoupons edits and issues): the templates with how many of each were
 * issued, used, expired and are still unused; a template form (the server checks it with the checkout's
 * own rules, src/domain/coupon.ts); an issue dialog for pasted numbers or a segment with its N days.
 */
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ModalForm,
  ProFormDependency,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { Alert, App, Button } from 'antd'
import { businessTypeLabels, couponScopeLabels, CouponType, couponTypeLabels } from '#domain/enums'
import { formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type {
  CouponTemplateBody,
  CouponTemplateRow,
  IssueCouponBody,
  IssueCouponResult,
} from '#console-contract/coupons'
import { adminApi } from '../../api'

const KEY = ['couponTemplates']
const EFFECTIVE_LABELS: Record<string, string> = {
  '1': '全部商品',
  '2': '首购价商品（非活动）',
  '3': '活动商品',
  '4': '首次购买',
}

const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value: String(value), label }))
const typeOptions = options(couponTypeLabels).filter((option) => Number(option.value) > 0)

const yuan = (fen: number | null) => (fen === null ? '—' : formatYuan(fen))
const faceValue = (row: CouponTemplateRow) =>
  row.couponType === CouponType.discountCoupon ? `${row.parValue / 10}折` : yuan(row.parValue)

interface TemplateForm {
  name: string
  couponType: string
  /** 元, or 折 for a discount coupon */
  value: number
  threshold?: number | null
  businessType: string
  scopes: string[]
  applicableObjects?: string
  effective?: string[]
  validDays: number
}

const toForm = (row: CouponTemplateRow): TemplateForm => ({
  name: row.name,
  couponType: String(row.couponType),
  value: row.couponType === CouponType.discountCoupon ? row.parValue / 10 : row.parValue / 100,
  threshold: row.conditionsUse === null ? null : row.conditionsUse / 100,
  businessType: String(row.businessType),
  scopes: row.scopeApplications.split(','),
  applicableObjects: row.applicableObjects ?? '',
  // '1' (全部商品) is what no effective scope means; shown so the field is never an empty select
  effective: row.effectiveScope ? row.effectiveScope.split(',') : ['1'],
  validDays: row.validDays,
})

const toBody = (form: TemplateForm): CouponTemplateBody => {
  const discount = Number(form.couponType) === CouponType.discountCoupon
  return {
    name: form.name.trim(),
    couponType: Number(form.couponType),
    parValue: Math.round(form.value * (discount ? 10 : 100)),
    conditionsUse: form.threshold == null ? null : Math.round(form.threshold * 100),
    businessType: Number(form.businessType),
    scopeApplications: form.scopes.join(','),
    applicableObjects: form.applicableObjects?.replace(/\s+/g, '') || null,
    effectiveScope: form.effective?.length ? form.effective.join(',') : null,
    validDays: form.validDays,
  }
}

export default function CouponsPage({ role }: { role: OperatorRole }) {
  const templates = useQuery({ queryKey: KEY, queryFn: adminApi.couponTemplates })
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

function TemplateDialog({ template }: { template: CouponTemplateRow | null }) {
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: (body: CouponTemplateBody) =>
      adminApi.saveCouponTemplate(template?.id ?? null, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  })
  return (
    <ModalForm<TemplateForm>
      title={template ? `修改模板「${template.name}」` : '新建优惠券模板'}
      width={560}
      trigger={template ? <a>修改</a> : <Button type="primary">新建模板</Button>}
      initialValues={
        template
          ? toForm(template)
          : { couponType: '1', businessType: '1', scopes: ['1'], effective: ['1'] }
      }
      modalProps={{ destroyOnClose: true, okText: '保存' }}
      onFinish={async (form) => {
        try {
          await save.mutateAsync(toBody(form))
          return true
        } catch {
          return false // the refusal's message (which rule) is shown; the dialog stays
        }
      }}
    >
      {template && template.issued > 0 ? (
        <Alert
          type="warning"
          showIcon
          message={`已发放的 ${template.issued} 张按修改后的规则使用`}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <ProFormText
        name="name"
        label="名称"
        fieldProps={{ maxLength: 40 }}
        rules={[{ required: true, whitespace: true, message: '请填写名称' }]}
      />
      <ProFormSelect name="couponType" label="类型" options={typeOptions} allowClear={false} />
      <ProFormDigit
        name="value"
        label="面额（元）/ 折扣（折）"
        tooltip="折扣券填折数，如 8.5"
        min={0.01}
        fieldProps={{ precision: 2 }}
        rules={[{ required: true, message: '请填写面额' }]}
      />
      <ProFormDigit name="threshold" label="使用门槛（元）" min={0} fieldProps={{ precision: 2 }} />
      <ProFormSelect
        name="businessType"
        label="业务"
        options={options(businessTypeLabels)}
        allowClear={false}
      />
      <ProFormSelect
        name="scopes"
        label="适用范围"
        mode="multiple"
        options={options(couponScopeLabels)}
        rules={[{ required: true, message: '请选择适用范围' }]}
      />
      <ProFormText
        name="applicableObjects"
        label="适用对象"
        tooltip="编号或时长，逗号分隔；折扣比例填 1–100"
        fieldProps={{ maxLength: 2000 }}
      />
      <ProFormSelect
        name="effective"
        label="生效范围"
        mode="multiple"
        options={options(EFFECTIVE_LABELS)}
      />
      <ProFormDigit
        name="validDays"
        label="有效天数"
        min={1}
        max={3650}
        fieldProps={{ precision: 0 }}
        rules={[{ required: true, message: '请填写有效天数' }]}
      />
    </ModalForm>
  )
}

interface IssueForm {
  kind: 'numbers' | 'newUsers' | 'expiringPhones'
  numbers?: string
  days?: number
}

const newRequestId = () => crypto.randomUUID()

function IssueDialog({ template }: { template: CouponTemplateRow }) {
  const queryClient = useQueryClient()
  const { message, modal } = App.useApp()
  // One id per opening of the dialog: pressing 发放 again (or a retried call) gives nobody a second coupon.
  const [requestId, setRequestId] = useState(newRequestId)
  const issue = useMutation({
    mutationFn: (body: IssueCouponBody) => adminApi.issueCoupon(template.id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  })
  return (
    <ModalForm<IssueForm>
      title={`发放「${template.name}」`}
      width={520}
      trigger={<a>发放</a>}
      initialValues={{ kind: 'numbers', days: 7 }}
      onOpenChange={(open) => {
        if (open) setRequestId(newRequestId())
      }}
      modalProps={{ destroyOnClose: true, okText: '发放' }}
      onFinish={async (form) => {
        const target: IssueCouponBody['target'] =
          form.kind === 'numbers'
            ? {
                kind: 'numbers',
                numbers: (form.numbers ?? '').split(/\s+/).filter((line) => line !== ''),
              }
            : { kind: form.kind, days: form.days ?? 1 }
        let result: IssueCouponResult
        try {
          result = await issue.mutateAsync({ requestId, target })
        } catch {
          return false // the refusal's message is shown; the dialog stays
        }
        // the dialog closes; how many got it stays on screen, and the numbers without an account
        // in a notice the operator closes
        const issued = `「${template.name}」已发放 ${result.issued} 人`
        if (result.unknownNumbers.length > 0) {
          modal.info({
            title: issued,
            content: `以下号码没有账号，未发放：${result.unknownNumbers.join('、')}`,
            okText: '知道了',
          })
        } else {
          void message.success(issued)
        }
        return true
      }}
    >
      <ProFormRadio.Group
        name="kind"
        label="发放对象"
        options={[
          { value: 'numbers', label: '手机号' },
          { value: 'newUsers', label: '新用户' },
          { value: 'expiringPhones', label: '云手机即将到期的用户' },
        ]}
      />
      <IssueTargetFields />
    </ModalForm>
  )
}

/** The numbers box, or the N days of the segment. */
function IssueTargetFields() {
  return (
    <ProFormDependency name={['kind']}>
      {(values) =>
        (values.kind as IssueForm['kind']) === 'numbers' ? (
          <ProFormTextArea
            name="numbers"
            label="手机号（每行一个）"
            fieldProps={{ rows: 6 }}
            rules={[{ required: true, whitespace: true, message: '请填写手机号' }]}
          />
        ) : (
          <ProFormDigit
            name="days"
            label={values.kind === 'newUsers' ? '最近几天注册' : '几天内到期'}
            min={1}
            max={365}
            fieldProps={{ precision: 0 }}
            rules={[{ required: true, message: '请填写天数' }]}
          />
        )
      }
    </ProFormDependency>
  )
}
