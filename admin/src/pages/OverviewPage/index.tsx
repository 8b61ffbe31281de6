/**
 * 概览 (every role; the page the console opens on): today's paid orders and provider revenue, the last 30
 * business days (China time) as a chart, live phones, provisioning failures, and stock per goods × zone with
 * 库存不足 where an on-sale pair is at or below the threshold. Read again every minute and on 刷新.
 */
import { useQuery } from '@tanstack/react-query'
import { Button, Result, Spin } from 'antd'
import { OperatorCode } from '#domain/result-codes'
import { adminApi, ApiError } from '../../api'
import Overview from './components/Overview'

export const OVERVIEW_KEY = ['overview'] as const
const REFRESH_MS = 60_000

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
