/** 退款: the whole amount back, after a dialog naming what it does and asking why. */
import { Button, Typography } from 'antd'
import type { AdminOrderDetail } from '#console-contract/orders'
import ReasonDialog from '../../../components/ReasonDialog'
import { consequence } from './order-refund'

export default function RefundDialog({
  detail,
  refund,
}: {
  detail: AdminOrderDetail
  refund: (reason: string) => Promise<unknown>
}) {
  return (
    <ReasonDialog
      title={`退款订单 ${detail.order.orderNo}？`}
      width={520}
      trigger={
        <Button danger type="primary">
          退款
        </Button>
      }
      okText="确认退款"
      reasonLabel="退款原因（记入退款单和操作日志）"
      reasonMissing="请填写退款原因"
      submit={refund}
    >
      <Typography.Paragraph type="danger">{consequence(detail)}</Typography.Paragraph>
    </ReasonDialog>
  )
}
