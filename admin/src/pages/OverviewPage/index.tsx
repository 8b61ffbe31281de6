/**
 * 概览 (every role; the page the console opens on): today's paid orders and provider revenue, the last 30
 * business days (China time) as a chart, live phones, provisioning failures, and stock per goods × zone with
 * 库存不足 where an on-sale pair is at or below the threshold. Read again every minute and on 刷新.
 */
import { lazy, Suspense } from 'react'
import { useQuery } from '@tanstack/react-query'
import {
  Badge,
  Button,
  Card,
  Col,
  Result,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
  type TableColumnsType,
} from 'antd'
import { androidVersionLabel, type AndroidVersion } from '#domain/catalogue'
import { OperatorCode } from '#domain/result-codes'
import type { AdminOverview, OverviewStockRow } from '#console-contract/overview'
import { adminApi, ApiError } from '../../api'
import { catalogueExpanding, CONSOLE_PATHS } from '../../paths'
import ConsoleLink from '../../components/ConsoleLink'
import { beijingTime } from '../../components/beijing-time'

/** The chart library is its own chunk, fetched when 概览 first draws the chart. */
const RevenueChart = lazy(() => import('./components/RevenueChart'))

export const OVERVIEW_KEY = ['overview'] as const
const REFRESH_MS = 60_000

const yuan = (fen: number) => fen / 100

/** 商品与价格 with the goods of the short pairs expanded (CataloguePage reads `expand`). */
const lowStockLink = (low: OverviewStockRow[]) =>
  catalogueExpanding([...new Set(low.map((row) => row.goodId))])

/** What the page says when GET /overview is refused (signed out: App goes back to sign-in). */
export function overviewErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === OperatorCode.NOT_SIGNED_IN) return '登录已失效，请重新登录'
    if (error.code === OperatorCode.FORBIDDEN) return '你的角色无权查看概览'
    return error.message || '概览读取失败，请稍后重试'
  }
  return error instanceof Error ? error.message : '概览读取失败，请稍后重试'
}

export default function OverviewPage() {
  const overview = useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: adminApi.overview,
    refetchInterval: REFRESH_MS,
    meta: { inlineError: true },
  })

  if (overview.isPending) {
    return (
      <Spin tip="加载中">
        <div style={{ minHeight: 200 }} />
      </Spin>
    )
  }
  if (overview.isError) {
    return (
      <Result
        status="error"
        title="无法读取概览"
        subTitle={overviewErrorText(overview.error)}
        extra={
          <Button type="primary" onClick={() => void overview.refetch()}>
            重试
          </Button>
        }
      />
    )
  }
  return (
    <Overview
      data={overview.data}
      refreshing={overview.isFetching}
      onRefresh={() => void overview.refetch()}
    />
  )
}

function Overview({
  data,
  refreshing,
  onRefresh,
}: {
  data: AdminOverview
  refreshing: boolean
  onRefresh: () => void
}) {
  const { today, days, phones, provisioning } = data
  const month = days.reduce(
    (sum, day) => ({
      paidOrders: sum.paidOrders + day.paidOrders,
      revenue: sum.revenue + day.revenue,
    }),
    { paidOrders: 0, revenue: 0 },
  )
  const low = data.stock.filter((row) => row.low)

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text type="secondary">
          数据时间 {beijingTime(data.asOf)}（北京时间，每分钟自动刷新）
        </Typography.Text>
        <Button size="small" loading={refreshing} onClick={onRefresh}>
          刷新
        </Button>
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic title={`今日支付订单（${today.day}）`} value={today.paidOrders} />
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic
              title="今日收入（元）"
              value={yuan(today.revenue)}
              precision={2}
              prefix="¥"
            />
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic
              title="运行中云手机"
              value={phones.running}
              suffix={
                <Typography.Text type="secondary" style={{ fontSize: 14 }}>
                  创建中 {phones.creating}
                </Typography.Text>
              }
            />
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            {/* opens 商品与价格 with the short goods expanded: their stock per zone, where it is restocked */}
            <ConsoleLink to={lowStockLink(low)}>
              <Statistic
                title={`库存不足（≤ ${data.lowStockThreshold}）`}
                value={low.length}
                suffix="项"
                valueStyle={low.length > 0 ? { color: '#cf1322' } : undefined}
              />
            </ConsoleLink>
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic
              title="创建失败的云手机（现在）"
              value={provisioning.failedPhones}
              valueStyle={provisioning.failedPhones > 0 ? { color: '#cf1322' } : undefined}
            />
            <ConsoleLink to={CONSOLE_PATHS.devices}>查看云手机</ConsoleLink>
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic title="近24小时创建失败" value={provisioning.failedPhones24h} suffix="台" />
            <Typography.Text type="secondary">24小时内新建的云手机中</Typography.Text>
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic
              title="失败或卡住的任务（现在）"
              value={provisioning.failedJobs}
              valueStyle={provisioning.failedJobs > 0 ? { color: '#cf1322' } : undefined}
            />
            <ConsoleLink to={CONSOLE_PATHS.jobs}>查看任务</ConsoleLink>
          </Card>
        </Col>
        <Col xs={24} sm={12} lg={6}>
          <Card>
            <Statistic title="近24小时失败或卡住" value={provisioning.failedJobs24h} suffix="个" />
            <Typography.Text type="secondary">24小时内新建的任务中</Typography.Text>
          </Card>
        </Col>
      </Row>
      <Card
        title="近30天每日收入"
        extra={
          <Typography.Text type="secondary">
            共 {month.paidOrders} 笔支付订单，收入 ¥{yuan(month.revenue).toFixed(2)}
          </Typography.Text>
        }
      >
        <Typography.Paragraph type="secondary">
          收入为当日经支付宝、微信支付收到的金额（未扣除退款）；用云豆或账户余额支付的订单计入订单数，
          不计入收入（其款项已在充值时计入）。
        </Typography.Paragraph>
        <div
          role="img"
          aria-label={`近30天每日收入柱状图，合计 ${yuan(month.revenue).toFixed(2)} 元`}
        >
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
      <StockTable rows={data.stock} threshold={data.lowStockThreshold} />
    </Space>
  )
}

function StockTable({ rows, threshold }: { rows: OverviewStockRow[]; threshold: number }) {
  const columns: TableColumnsType<OverviewStockRow> = [
    {
      title: '商品',
      dataIndex: 'goodsName',
      render: (_, row) => (
        <ConsoleLink to={catalogueExpanding([row.goodId])}>
          {`${row.goodsName}（${androidVersionLabel(row.androidVersion as AndroidVersion)}）`}
        </ConsoleLink>
      ),
    },
    { title: '地区', dataIndex: 'zoneName' },
    {
      title: '可售库存',
      dataIndex: 'stock',
      align: 'right',
      sorter: (a, b) => a.stock - b.stock,
    },
    {
      title: '状态',
      key: 'state',
      filters: [
        { text: '库存不足', value: 'low' },
        { text: '在售', value: 'onSale' },
        { text: '已下架', value: 'offSale' },
      ],
      onFilter: (value, row) =>
        value === 'low' ? row.low : value === 'onSale' ? row.onSale : !row.onSale,
      render: (_, row) => (
        <Space size={4}>
          {row.onSale ? (
            <Badge status="success" text="在售" />
          ) : (
            <Badge status="default" text="已下架" />
          )}
          {row.low ? <Tag color="red">库存不足</Tag> : null}
        </Space>
      ),
    },
  ]
  return (
    <Card
      title="各地区库存"
      extra={
        <Typography.Text type="secondary">
          在售且可售库存 ≤ {threshold} 标为库存不足；补货请到「商品与价格」
        </Typography.Text>
      }
    >
      <Table<OverviewStockRow>
        rowKey={(row) => `${row.goodId}:${row.zoneId}`}
        columns={columns}
        dataSource={rows}
        size="small"
        pagination={{ pageSize: 20, showSizeChanger: true }}
        locale={{ emptyText: <Typography.Text>暂无商品</Typography.Text> }}
      />
    </Card>
  )
}
