/** A flash-sale item's 修改 dialog: its price in 元 (sent in fen), stock and order. */
import { useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ModalForm, ProFormDigit } from '@ant-design/pro-components'
import { Button, Typography } from 'antd'
import { durationLabel } from '#domain/catalogue'
import { MAX_PRICE_FEN, yuanToFen } from '#domain/console/catalogue-edits'
import { fenToYuan, formatYuan } from '#domain/formatters'
import {
  MAX_SECKILL_SORT,
  MAX_SECKILL_STOCK,
  validateSeckillItemEdit,
  type SeckillItemEdit,
} from '#domain/console/settings-edits'
import type { AdminActivity, AdminSeckillItem } from '#console-contract/settings'
import { adminApi } from '../../../api'
import { saveChecked, type MutationOptions } from './settings-refusal'

interface ItemForm {
  price: number | null
  stock: number | null
  sort: number | null
}

export default function SeckillItemEditor({
  activity,
  item,
  mutationOptions,
}: {
  activity: AdminActivity
  item: AdminSeckillItem
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: SeckillItemEdit) =>
      adminApi.editSeckillItem(item.id, { version: item.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const label = `${item.goodsName} ${durationLabel(item.goodTime)}`
  return (
    <ModalForm<ItemForm>
      title={`修改秒杀商品：${label}`}
      width={480}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改秒杀商品 ${label}`}>
          修改
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      initialValues={{ price: Number(fenToYuan(item.price)), stock: item.stock, sort: item.sort }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: SeckillItemEdit = {
          price: values.price === null ? 0 : (yuanToFen(values.price.toFixed(2)) ?? 0),
          stock: values.stock ?? -1,
          sort: values.sort ?? 0,
        }
        return saveChecked(edit, validateSeckillItemEdit(edit, item.sold), save.mutateAsync, setWhy)
      }}
    >
      <Typography.Paragraph type="secondary">
        {activity.title}：原价 {formatYuan(item.goodPrice)}
      </Typography.Paragraph>
      <ProFormDigit
        name="price"
        label="秒杀价"
        fieldProps={{
          precision: 2,
          min: 0.01,
          max: MAX_PRICE_FEN / 100,
          addonAfter: '元',
          style: { width: '100%' },
        }}
        rules={[{ required: true, message: '请输入秒杀价' }]}
      />
      <ProFormDigit
        name="stock"
        label="库存"
        extra={`全部可抢数量，含已售出和待支付占用的 ${item.sold} 件，不能少于它`}
        fieldProps={{ precision: 0, min: 0, max: MAX_SECKILL_STOCK, addonAfter: '件' }}
        rules={[{ required: true, message: '请输入库存' }]}
      />
      <ProFormDigit
        name="sort"
        label="排序"
        extra="数字小的排在前面"
        fieldProps={{ precision: 0, min: 0, max: MAX_SECKILL_SORT }}
        rules={[{ required: true, message: '请输入排序' }]}
      />
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}
