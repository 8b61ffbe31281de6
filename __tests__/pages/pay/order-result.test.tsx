/**
 * The pay page's result while a renewal runs: the title 支付成功 keeps its own look and the
 * 续费中 n/N bar its own. Both used the class `progress` (the stage's tone and the bar), so the title
 * took the bar's 12 px height with overflow hidden and showed as a grey strip. CSS modules are stubbed
 * in jest: here each class is its own name, so the classes an element gets can be compared.
 */
import { screen } from '@testing-library/react'
import OrderResult from '@/pages/pay/parts/OrderResult'
import { renderPage } from '../page-harness'
import { order } from '../buying/fixtures'

jest.mock('@/pages/pay/parts/pay.module.scss', () => {
  const names: Record<string | symbol, unknown> = {}
  const styles: Record<string | symbol, unknown> = new Proxy(names, {
    get: (_, key) => (key === '__esModule' ? false : key === 'default' ? styles : key),
  })
  return styles
})

const classesOf = (element: Element) => new Set(element.className.split(/\s+/).filter(Boolean))

describe('a renewal on its way', () => {
  it.each([
    ['paid, waiting for delivery', 1, { done: 0, total: 10000 }],
    ['completed, phones still syncing', 2, { done: 4200, total: 10000 }],
  ] as const)('%s: the title and the progress bar share no class', (_, status, progress) => {
    renderPage(<OrderResult order={order({ kind: 'renew', status, progress })} />, {})
    expect(screen.getByText(`续费中 ${progress.done}/${progress.total}`)).toBeTruthy()
    const bar = screen.getByRole('progressbar', { name: '续费进度' })
    expect(bar.getAttribute('aria-valuenow')).toBe(String(progress.done))
    const title = classesOf(screen.getByText('支付成功'))
    const shared = [...classesOf(bar)].filter((name) => title.has(name))
    expect(shared).toEqual([])
  })
})
