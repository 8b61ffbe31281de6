/**
 * 概览's figures as read: today, phones, stock short, provisioning failures, the month's revenue and the
 * stock per zone.
 */
import { Button, Card, Col, Row, Space, Statistic, Typography } from 'antd'
import { fenToYuan } from '#domain/formatters'
import type { AdminOverview, OverviewStockRow } from '#console-contract/overview'
import { catalogueExpanding, CONSOLE_PATHS } from '../../../paths'
import ConsoleLink from '../../../components/ConsoleLink'
import { beijingTime } from '../../../components/beijing-time'
import RevenueCard from './RevenueCard'
import StockTable from './StockTable'

/** 商品与价格 with the goods of the short pairs expanded (CataloguePage reads `expand`). */
const lowStockLink = (low: OverviewStockRow[]) =>
  catalogueExpanding([...new Set(low.map((row) => row.goodId))])

export default function Overview({
  data,
  refreshing,
  onRefresh,
}: {
  data: AdminOverview
  refreshing: boolean
  onRefresh: () => void
}) {
  const { today, days, phones, provisioning } = data
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
              value={Number(fenToYuan(today.revenue))}
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
      <RevenueCard days={days} />
      <StockTable rows={data.stock} threshold={data.lowStockThreshold} />
    </Space>
  )
}
