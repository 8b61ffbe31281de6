/** A price row's 修改价格 dialog: sale, crossed-out, first-purchase and activity prices in 元. */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ModalForm, ProFormDateTimePicker, ProFormDigit } from '@ant-design/pro-components'
import { Button, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { durationLabel } from '#domain/catalogue'
import { validatePriceEdit, type PriceEdit } from '#domain/console/catalogue-edits'
import { fenToYuan } from '#domain/formatters'
import type { AdminGoodsRow, AdminPriceRow } from '#console-contract/catalogue'
import { adminApi } from '../../../api'
import { beijingWallClock, fromBeijingWallClock } from '../../../components/beijing-time'
import { fenOf, goodsName, yuanProps, type CatalogueMutationOptions } from './catalogue-parts'

interface PriceForm {
  goodPrice: number
  oldGoodPrice?: number | null
  firstPurchasePrice?: number | null
  firstCount: number
  activityPrice?: number | null
  activityEndsAt?: Dayjs | null
}

export default function PriceEditor({
  goods,
  row,
  mutationOptions,
}: {
  goods: AdminGoodsRow
  row: AdminPriceRow
  mutationOptions: CatalogueMutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: PriceEdit) => adminApi.editPrice(row.id, { version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const label = `${goodsName(goods)} ${durationLabel(row.goodTime)}`
  const yuan = (value: number | null) => (value === null ? null : Number(fenToYuan(value)))
  return (
    <ModalForm<PriceForm>
      title={`修改价格：${label}`}
      width={520}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改价格 ${label}`}>
          修改价格
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      initialValues={{
        goodPrice: yuan(row.goodPrice),
        oldGoodPrice: yuan(row.oldGoodPrice),
        firstPurchasePrice: yuan(row.firstPurchasePrice),
        firstCount: row.firstCount,
        activityPrice: yuan(row.activityPrice),
        activityEndsAt:
          row.activityEndsAt === null ? null : dayjs(beijingWallClock(row.activityEndsAt)),
      }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: PriceEdit = {
          goodPrice: fenOf(values.goodPrice) ?? 0,
          oldGoodPrice: fenOf(values.oldGoodPrice),
          firstPurchasePrice: fenOf(values.firstPurchasePrice),
          firstCount: values.firstCount ?? 0,
          activityPrice: row.activityId === null ? null : fenOf(values.activityPrice),
          activityEndsAt:
            row.activityId === null
              ? null
              : values.activityEndsAt
                ? fromBeijingWallClock(values.activityEndsAt.toDate())
                : null,
        }
        const broken = validatePriceEdit(edit, {
          activityId: row.activityId,
          maxPerOrder: goods.maxPerOrder,
        })
        if (broken) {
          setWhy(broken)
          return false
        }
        try {
          await save.mutateAsync(edit)
          return true
        } catch {
          return false // the refusal's message is shown; the dialog stays for a correction
        }
      }}
    >
      <ProFormDigit
        name="goodPrice"
        label="售价"
        fieldProps={yuanProps}
        rules={[{ required: true, message: '请输入售价' }]}
      />
      <ProFormDigit
        name="oldGoodPrice"
        label="划线价"
        extra="留空则不显示划线价"
        fieldProps={yuanProps}
      />
      <ProFormDigit
        name="firstPurchasePrice"
        label="首购价"
        extra="新用户首单的优惠价，留空则没有首购优惠"
        fieldProps={yuanProps}
      />
      <ProFormDigit
        name="firstCount"
        label="首购数量"
        extra={`首单中按首购价计的台数（0–${goods.maxPerOrder}）`}
        fieldProps={{ precision: 0, min: 0, max: goods.maxPerOrder, addonAfter: '台' }}
        rules={[{ required: true, message: '请输入首购数量' }]}
      />
      {row.activityId !== null && (
        <>
          <ProFormDigit
            name="activityPrice"
            label="活动价"
            extra="留空则结束活动价"
            fieldProps={yuanProps}
          />
          <ProFormDateTimePicker
            name="activityEndsAt"
            label="活动结束时间（北京时间）"
            extra="留空则活动一直进行"
          />
        </>
      )}
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}
