/** A zone's 修改库存 dialog: its free stock (what pending orders hold is not part of it). */
import { useMutation } from '@tanstack/react-query'
import { ModalForm, ProFormDigit } from '@ant-design/pro-components'
import { Button } from 'antd'
import { MAX_FREE_STOCK, validateFreeStock } from '#domain/console/catalogue-edits'
import type { AdminGoodsRow, AdminStockRow } from '#console-contract/catalogue'
import { adminApi } from '../../../api'
import { goodsName, type CatalogueMutationOptions } from './catalogue-parts'

export default function StockEditor({
  goods,
  row,
  zoneName,
  mutationOptions,
}: {
  goods: AdminGoodsRow
  row: AdminStockRow
  zoneName: string
  mutationOptions: CatalogueMutationOptions
}) {
  const save = useMutation({
    mutationFn: (free: number) =>
      adminApi.setStock(goods.id, row.zoneId, { version: row.version, free }),
    ...mutationOptions,
  })
  const label = `${goodsName(goods)} ${zoneName}`
  return (
    <ModalForm<{ free: number }>
      title={`修改库存：${label}`}
      width={440}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改库存 ${label}`}>
          修改库存
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存' }}
      initialValues={{ free: row.free }}
      onFinish={async ({ free }) => {
        try {
          await save.mutateAsync(free)
          return true
        } catch {
          return false
        }
      }}
    >
      <ProFormDigit
        name="free"
        label="可售库存"
        extra={`待支付订单占用的 ${row.held} 台不在其中：它们仍归各自的订单，订单取消或超时后加回可售库存。`}
        fieldProps={{ precision: 0, min: 0, max: MAX_FREE_STOCK, addonAfter: '台' }}
        rules={[
          { required: true, message: '请输入可售库存' },
          {
            validator: async (_rule: unknown, value: number) => {
              const broken = validateFreeStock(value)
              if (broken) throw new Error(broken)
            },
          },
        ]}
      />
    </ModalForm>
  )
}
