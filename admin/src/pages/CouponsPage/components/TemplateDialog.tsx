/**
 * A template's 新建 / 修改 dialog: 元 (or 折 for a discount coupon) in the form, fen (or tenths) sent; the
 * server checks it with the checkout's own rules.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ModalForm, ProFormDigit, ProFormSelect, ProFormText } from '@ant-design/pro-components'
import { Alert, Button } from 'antd'
import { businessTypeLabels, couponScopeLabels, CouponType, couponTypeLabels } from '#domain/enums'
import type { CouponTemplateBody, CouponTemplateRow } from '#console-contract/coupons'
import { adminApi } from '../../../api'
import { COUPON_TEMPLATES_KEY } from './coupon-templates-key'

const EFFECTIVE_LABELS: Record<string, string> = {
  '1': '全部商品',
  '2': '首购价商品（非活动）',
  '3': '活动商品',
  '4': '首次购买',
}

const options = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value: String(value), label }))
const typeOptions = options(couponTypeLabels).filter((option) => Number(option.value) > 0)
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
export default function TemplateDialog({ template }: { template: CouponTemplateRow | null }) {
  const queryClient = useQueryClient()
  const save = useMutation({
    mutationFn: (body: CouponTemplateBody) =>
      adminApi.saveCouponTemplate(template?.id ?? null, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: COUPON_TEMPLATES_KEY }),
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
