/**
 * Row windowing for the multi view. Our own rather than NutUI's VirtualList: the grid needs the range
 * of visible rows itself (to fetch covers only for those phones), and rows of several cards each.
 */
export interface GridMetrics {
  columns: number
  /** px, card plus gap */
  rowHeight: number
  cardWidth: number
  /** px of the card itself (a dense tile's; a card's is its cover plus the caption) */
  cardHeight: number
  gap: number
}

/** Two columns on a phone, three from 600 px; a card is a 9:16 screen plus a 64 px caption. */
export function gridMetrics(width: number): GridMetrics {
  const columns = width >= 600 ? 3 : 2
  const gap = 10
  const cardWidth = Math.floor((width - gap * (columns + 1)) / columns)
  const cardHeight = Math.round((cardWidth * 16) / 9) + 64
  return { columns, rowHeight: cardHeight + gap, cardWidth, cardHeight, gap }
}

/** A dense tile's height in design px (750 wide): the compact caption's two lines and padding. */
export const DENSE_TILE_DESIGN_PX = 108

/**
 * The dense mode: tiles of name and status without a screenshot, two columns on a phone and four from
 * 600 px, as tall as the caption at the page's scale (H5's root font stops at half and full size).
 */
export function denseMetrics(width: number): GridMetrics {
  const columns = width >= 600 ? 4 : 2
  const gap = 8
  const scale = Math.min(1, Math.max(0.5, width / 750))
  const cardWidth = Math.floor((width - gap * (columns + 1)) / columns)
  const cardHeight = Math.ceil(DENSE_TILE_DESIGN_PX * scale)
  return { columns, rowHeight: cardHeight + gap, cardWidth, cardHeight, gap }
}

export interface RowRange {
  /** first rendered row (inclusive) */
  first: number
  /** last rendered row (exclusive) */
  end: number
}

/** Rows intersecting the viewport, plus `overscan` rows on each side. */
export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  rowCount: number,
  overscan = 1,
): RowRange {
  if (rowCount <= 0 || rowHeight <= 0) return { first: 0, end: 0 }
  const top = Math.max(0, scrollTop)
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan)
  const end = Math.min(rowCount, Math.ceil((top + viewportHeight) / rowHeight) + overscan)
  return { first, end: Math.max(first, end) }
}

/** Rows strictly on screen (no overscan): the phones whose covers are fetched. */
export function onScreenItems<T>(
  items: T[],
  columns: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): T[] {
  const rows = Math.ceil(items.length / columns)
  const { first, end } = visibleRows(scrollTop, viewportHeight, rowHeight, rows, 0)
  return items.slice(first * columns, end * columns)
}

/** Load the next page once the rendered rows come within `threshold` rows of the loaded end. */
export const nearEnd = (range: RowRange, rowCount: number, threshold = 3) =>
  rowCount > 0 && range.end >= rowCount - threshold
