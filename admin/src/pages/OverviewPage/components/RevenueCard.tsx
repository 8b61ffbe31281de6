/** 近30天每日收入: the month's paid orders and revenue, and the chart (its library fetched when first drawn). */
import { lazy, Suspense } from 'react'
import { Card, Spin, Typography } from 'antd'
import { fenToYuan, formatYuan } from '#domain/formatters'
import type { OverviewDay } from '#console-contract/overview'

/** The chart library is its own chunk, fetched when 概览 first draws the chart. */
const RevenueChart = lazy(() => import('./RevenueChart'))

export default function RevenueCard({ days }: { days: OverviewDay[] }) {
  const month = days.reduce(
    (sum, day) => ({
      paidOrders: sum.paidOrders + day.paidOrders,
      revenue: sum.revenue + day.revenue,
    }),
    { paidOrders: 0, revenue: 0 },
  )
  return (
    <Card
      title="近30天每日收入"
      extra={
        <Typography.Text type="secondary">
          共 {month.paidOrders} 笔支付订单，收入 {formatYuan(month.revenue)}
        </Typography.Text>
      }
    >
      <Typography.Paragraph type="secondary">
        收入为当日经支付宝、微信支付收到的金额（未扣除退款）；用云豆或账户余额支付的订单计入订单数，
        不计入收入（其款项已在充值时计入）。
      </Typography.Paragraph>
      <div role="img" aria-label={`近30天每日收入柱状图，合计 ${fenToYuan(month.revenue)} 元`}>
        <Suspense
          fallback={
            <Spin tip="图表加载中">
              <div style={{ height: 280 }} />
            </Spin>
          }
        >
          <RevenueChart days={days} />
        </Suspense>
      </div>
    </Card>
  )
}
