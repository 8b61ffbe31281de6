import {
  denseMetrics,
  gridMetrics,
  nearEnd,
  onScreenItems,
  visibleRows,
} from '@/pages/Home/parts/fleet/windowing'

describe('grid windowing', () => {
  it('renders only the rows in the viewport plus overscan', () => {
    // 500 rows of 100 px, viewport 800 px scrolled to 10,000 px
    expect(visibleRows(10_000, 800, 100, 500, 1)).toEqual({ first: 99, end: 109 })
  })

  it('clamps at the top and the bottom', () => {
    expect(visibleRows(-50, 800, 100, 500, 2)).toEqual({ first: 0, end: 10 })
    expect(visibleRows(49_900, 800, 100, 500, 2)).toEqual({ first: 497, end: 500 })
    expect(visibleRows(0, 800, 100, 0)).toEqual({ first: 0, end: 0 })
  })

  it('lists the phones strictly on screen for cover fetching', () => {
    const ids = Array.from({ length: 20 }, (_, i) => i + 1)
    // two columns, rows of 100 px; 250 px viewport at 100 px shows rows 1..3 → phones 3..8
    expect(onScreenItems(ids, 2, 100, 250, 100)).toEqual([3, 4, 5, 6, 7, 8])
  })

  it('uses two columns on a phone and three on a wide screen', () => {
    expect(gridMetrics(390).columns).toBe(2)
    expect(gridMetrics(390).cardWidth).toBe(180)
    expect(gridMetrics(768).columns).toBe(3)
  })

  it('asks for more when the rendered rows near the loaded end', () => {
    expect(nearEnd({ first: 10, end: 22 }, 25)).toBe(true)
    expect(nearEnd({ first: 0, end: 8 }, 25)).toBe(false)
    expect(nearEnd({ first: 0, end: 0 }, 0)).toBe(false)
  })

  it('packs at least twelve dense tiles into a 390×844 screen, and scales them with the page', () => {
    const dense = denseMetrics(390)
    expect(dense.columns).toBe(2)
    expect(dense.cardHeight).toBe(57)
    // the list's part of the screen is under 700 px (bar, toolbar, tab bar): still ≥ 6 rows of 2
    expect(Math.floor(600 / dense.rowHeight) * dense.columns).toBeGreaterThanOrEqual(12)
    expect(gridMetrics(390).rowHeight).toBeGreaterThan(5 * dense.rowHeight)
    // H5's root font stops at half size (320 px) and at full size (750 px and wider)
    expect(denseMetrics(320).cardHeight).toBe(54)
    expect(denseMetrics(1024)).toMatchObject({ columns: 4, cardHeight: 108 })
  })
})
