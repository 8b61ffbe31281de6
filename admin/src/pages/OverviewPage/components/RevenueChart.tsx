/**
 * 概览's daily revenue chart (@ant-design/plots): one column per business day, 元 received through the
 * payment providers; the tooltip adds the day's paid orders. Loaded on its own (React.lazy in
 * OverviewPage), so the charting library is fetched only when 概览 opens.
 */
import { Column } from '@ant-design/plots'
import type { OverviewDay } from '#console-contract/overview'

const yuan = (fen: number) => (fen / 100).toFixed(2)

export default function RevenueChart({ days }: { days: OverviewDay[] }) {
  const data = days.map((day) => ({
    day: day.day.slice(5),
    date: day.day,
    revenue: day.revenue / 100,
    paidOrders: day.paidOrders,
  }))
  return (
    <Column
      data={data}
      xField="day"
      yField="revenue"
      height={280}
      autoFit
      axis={{
        x: { title: false, labelAutoHide: true },
        y: { title: '收入（元）', labelFormatter: (value: number) => `¥${value}` },
      }}
      tooltip={{
        title: 'date',
        items: [
          {
            channel: 'y',
            name: '收入',
            valueFormatter: (value: number) => `¥${yuan(value * 100)}`,
          },
          { field: 'paidOrders', name: '支付订单' },
        ],
      }}
    />
  )
}
