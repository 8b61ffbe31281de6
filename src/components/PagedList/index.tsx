import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { View } from '@tarojs/components'
import { InfiniteLoading } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import RetryButton from '@/components/RetryButton'
import { failureCode } from '@/runtime/api-error'
import { errorMessage } from '@/runtime/feedback'
import {
  BACK_TO_TOP_FROM,
  LIST_TEXTS,
  LOAD_MORE_OFFSET,
  PAGE_SIZE,
  PULL_DOWN_OFFSET,
} from '@/constants/limits'
import {
  applyPage,
  hasMore,
  initialListState,
  type ListState,
  type PagedResult,
} from './paged-list-state'
import styles from './index.module.scss'

export interface PagedListProps<T> {
  /** loads one page (1-based) of `rows` records */
  load: (page: number, rows: number) => Promise<PagedResult<T>>
  renderItem: (item: T, index: number) => ReactNode
  keyOf: (item: T) => string | number
  emptyText?: string
  /** change this to reload from page 1 (e.g. a filter changed) */
  reloadKey?: unknown
  className?: string
}

/**
 * The one paged list (SPEC 9): page size 10, pull-down offset 80, load-more offset 150, back-to-top
 * from 1000, footer texts 加载中... / 没有更多了 / 加载失败, empty text 暂无相关数据.
 */
export default function PagedList<T>(props: PagedListProps<T>) {
  const { load, renderItem, keyOf, emptyText = LIST_TEXTS.empty, reloadKey, className } = props
  const [state, setState] = useState<ListState<T>>(initialListState)
  const [scrollTop, setScrollTop] = useState(0)
  const stateRef = useRef(state)
  stateRef.current = state
  const [scrollTo, setScrollTo] = useState<number | undefined>(undefined)
  // why the last load failed, in the server's words (SPEC 8: its message is shown)
  const [failure, setFailure] = useState<{ text: string; code: number | null }>({
    text: LIST_TEXTS.error,
    code: null,
  })

  const fetchPage = useCallback(
    async (reset: boolean) => {
      const page = reset ? 1 : stateRef.current.page + 1
      setState((s) => ({ ...s, status: 'loading' }))
      try {
        const result = await load(page, PAGE_SIZE)
        setState((s) => applyPage(reset ? initialListState<T>() : s, result, reset))
      } catch (error) {
        // a failed load ends the scroll in the error state with the server's message (SPEC 8)
        setFailure({ text: errorMessage(error, LIST_TEXTS.error), code: failureCode(error) })
        setState((s) => ({ ...s, status: 'error' }))
      }
    },
    [load],
  )

  useEffect(() => {
    fetchPage(true)
    // reload when the caller's filter changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloadKey])

  const { records, status } = state
  // NutUI's InfiniteLoading renders the 加载中... / 没有更多了 footer; the first page and errors are ours
  return (
    <View className={`${styles.wrap} ${className ?? ''}`}>
      <InfiniteLoading
        className={styles.scroll}
        pullRefresh
        threshold={PULL_DOWN_OFFSET}
        lowerThreshold={LOAD_MORE_OFFSET}
        scrollTop={scrollTo}
        pullingText="松开刷新"
        loadingText={LIST_TEXTS.loading}
        loadMoreText={status === 'noMore' ? LIST_TEXTS.noMore : ''}
        hasMore={hasMore(state)}
        onRefresh={() => fetchPage(true)}
        onLoadMore={() => fetchPage(false)}
        onScroll={setScrollTop}
      >
        {records.map((item, index) => (
          <View key={keyOf(item)}>{renderItem(item, index)}</View>
        ))}
        {status === 'loading' && records.length === 0 && (
          <View className={styles.footer}>{LIST_TEXTS.loading}</View>
        )}
        {status === 'empty' && <EmptyState description={emptyText} />}
        {status === 'error' && (
          <View className={styles.error} role="alert">
            <View>{failure.text}</View>
            <RetryButton code={failure.code} onRetry={() => fetchPage(records.length === 0)} />
          </View>
        )}
      </InfiniteLoading>
      {scrollTop >= BACK_TO_TOP_FROM && (
        <View
          className={styles.backTop}
          role="button"
          aria-label="回到顶部"
          // a scroll-view only scrolls when the prop changes: alternate between two near-zero values
          onClick={() => setScrollTo((v) => (v === 0 ? 0.1 : 0))}
        >
          ↑
        </View>
      )}
    </View>
  )
}
