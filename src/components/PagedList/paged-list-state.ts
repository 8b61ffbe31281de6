/**
 * The state machine behind every paged list (SPEC 4 "List paging": loading, no-more-data, empty,
 * error). Pure, so the rules are tested without rendering.
 */
export type ListStatus = 'idle' | 'loading' | 'noMore' | 'empty' | 'error'

export interface PagedResult<T> {
  records: T[]
  page: number
  totalPage: number
}

export interface ListState<T> {
  records: T[]
  page: number
  totalPage: number
  status: ListStatus
}

export const initialListState = <T>(): ListState<T> => ({
  records: [],
  page: 0,
  totalPage: 0,
  status: 'idle',
})

export function applyPage<T>(
  state: ListState<T>,
  result: PagedResult<T>,
  reset: boolean,
): ListState<T> {
  const records = reset ? result.records : [...state.records, ...result.records]
  const hasMore = result.page < result.totalPage
  return {
    records,
    page: result.page,
    totalPage: result.totalPage,
    status: records.length === 0 ? 'empty' : hasMore ? 'idle' : 'noMore',
  }
}

export const hasMore = (state: ListState<unknown>) =>
  state.status !== 'noMore' && state.status !== 'empty' && state.status !== 'error'
