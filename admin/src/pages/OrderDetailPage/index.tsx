/**
 * One order (/admin/orders/<id>): the order, the phones it made, every payment attempt with its provider
 * and trade number, and its refunds. 退款 (finance only, and only when the server says the order may be
 * refunded) asks for a reason in a dialog that names the consequence: the money back the way it came and
 * what happens to the phones.
 */
import { useRef } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, Button, Space } from 'antd'
import { nextFollowDelay } from '#domain/flux'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { orderInFlux } from '#domain/order-status'
import { OperatorCode } from '#domain/result-codes'
import type { AdminOrderDetail } from '#console-contract/orders'
import { adminApi } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import { DetailUnavailable } from '../../components/detail-parts'
import OrderFacts from './components/OrderFacts'
import OrderRecords from './components/OrderRecords'
import RefundDialog from './components/RefundDialog'
import { refundOpen } from './components/order-refund'

function BackButton() {
  return <Button onClick={() => navigate(CONSOLE_PATHS.orders)}>返回订单列表</Button>
}

export default function OrderDetailPage({ id, role }: { id: number; role: OperatorRole }) {
  const queryClient = useQueryClient()
  const key = ['order', id] as const
  // while the order changes by itself (paid and not yet delivered, a refund on its way back), it is
  // read again after 1 s, then half as long again while nothing changed (at most 5 s), as the app's
  // screens follow the server (docs/cloud-phones.md)
  const followed = useRef<{ data: AdminOrderDetail | undefined; delay: number | null }>({
    data: undefined,
    delay: null,
  })
  const detail = useQuery({
    queryKey: key,
    queryFn: () => adminApi.order(id),
    meta: { inlineError: true },
    refetchInterval: (query) => {
      const data = query.state.data
      if (!data || !orderInFlux(data.order.status, refundOpen(data))) {
        followed.current = { data, delay: null }
        return false
      }
      // react-query keeps the same object when an answer is unchanged
      const changed = followed.current.data !== data
      const delay = nextFollowDelay(followed.current.delay, changed)
      followed.current = { data, delay }
      return delay
    },
  })

  const refund = useMutation({
    mutationFn: (reason: string) => adminApi.refundOrder(id, reason),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data)
      void queryClient.invalidateQueries({ queryKey: ['orders'] })
    },
    // a refusal (another operator refunded it first…) is shown; the page then reads the order again
    onError: () => void queryClient.invalidateQueries({ queryKey: key }),
  })

  if (detail.isPending || detail.isError) {
    return (
      <DetailUnavailable
        query={detail}
        notFoundCode={OperatorCode.ORDER_NOT_FOUND}
        notFound="订单不存在"
        failed="无法读取该订单"
        back={<BackButton />}
      />
    )
  }

  const { refundRefusal } = detail.data
  const mayRefund = mayDo(role, 'refundOrders')
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <BackButton />
        {mayRefund && refundRefusal === null && (
          <RefundDialog detail={detail.data} refund={(reason) => refund.mutateAsync(reason)} />
        )}
      </Space>
      {mayRefund && refundRefusal !== null && (
        <Alert type="info" showIcon message={`不能退款：${refundRefusal}`} />
      )}
      <OrderFacts detail={detail.data} />
      <OrderRecords detail={detail.data} />
    </Space>
  )
}
