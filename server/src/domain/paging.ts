export interface PageRequest {
  page?: number
  rows?: number
}

export interface Paged<T> {
  records: T[]
  page: number
  totalPage: number
  total: number
}

export const DEFAULT_PAGE_SIZE = 10
export const MAX_PAGE_SIZE = 100

export function normalisePage(request: PageRequest) {
  const page = Math.max(1, Math.floor(request.page ?? 1))
  const rows = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(request.rows ?? DEFAULT_PAGE_SIZE)))
  return { page, rows, offset: (page - 1) * rows }
}

export function toPaged<T>(records: T[], page: number, rows: number, total: number): Paged<T> {
  return { records, page, totalPage: Math.ceil(total / rows), total }
}
