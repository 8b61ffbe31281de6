import {
  FOLLOW_LIMIT_MS,
  ORDER_AREA,
  PaidOrdersStore,
  type OrderSnapshot,
} from '@/stores/paid-orders-store'

const order = (over: Partial<OrderSnapshot> = {}): OrderSnapshot => ({
  orderNo: 'CP1',
  kind: 'new',
  status: 1,
  quantity: 2,
  ...over,
})

function store(answers: Record<string, Array<OrderSnapshot | Error>> = {}) {
  let now = 1_000_000
  const asked: string[] = []
  const getOrder = jest.fn(async (orderNo: string) => {
    asked.push(orderNo)
    const next = answers[orderNo]?.shift()
    if (!next || next instanceof Error) throw next ?? new Error('no answer')
    return next
  })
  const paid = new PaidOrdersStore({ getOrder, now: () => now })
  return { paid, asked, getOrder, advance: (ms: number) => (now += ms) }
}

describe('PaidOrdersStore', () => {
  it('follows an order from paid until it is final, and says when it became final', () => {
    const { paid } = store()
    expect(paid.note(order({ status: 0 }))).toBe(false)
    expect(paid.pending).toEqual([])
    expect(paid.note(order())).toBe(false)
    expect(paid.note(order())).toBe(false) // seen paid again: still one
    expect(paid.pendingIn('fleet')).toEqual([
      { orderNo: 'CP1', kind: 'new', quantity: 2, since: 1_000_000 },
    ])
    expect(paid.pendingIn('wallet')).toEqual([])
    expect(paid.note(order({ status: 2 }))).toBe(true)
    expect(paid.pending).toEqual([])
    // an order never seen paid (opened after delivery) changes nothing: the page loads fresh anyway
    expect(paid.note(order({ orderNo: 'CP2', status: 2 }))).toBe(false)
  })

  it('a refunded order is final too; activation codes are not followed (the pay page shows them)', () => {
    const { paid } = store()
    paid.note(order({ kind: 'renew' }))
    expect(paid.note(order({ kind: 'renew', status: 5 }))).toBe(true)
    paid.note(order({ orderNo: 'AC', kind: 'activationCode' }))
    expect(paid.pending).toEqual([])
  })

  it('puts every kind but activation codes in the area that shows it', () => {
    expect(ORDER_AREA).toEqual({
      new: 'fleet',
      renew: 'fleet',
      upgrade: 'fleet',
      video: 'fleet',
      timeToMonth: 'fleet',
      activationCode: null,
      beanRecharge: 'wallet',
      balanceRecharge: 'wallet',
      cloudSpace: 'space',
    })
  })

  it('a round asks only for the area’s orders and is true once one of them is delivered', async () => {
    const { paid, asked } = store({
      CP1: [order(), order({ status: 2 })],
      B1: [order({ orderNo: 'B1', kind: 'beanRecharge' })],
    })
    paid.note(order())
    paid.note(order({ orderNo: 'B1', kind: 'beanRecharge' }))
    expect(await paid.poll('fleet')).toBe(false)
    expect(await paid.poll('fleet')).toBe(true)
    expect(asked).toEqual(['CP1', 'CP1'])
    expect(paid.pending.map((o) => o.orderNo)).toEqual(['B1'])
    expect(await paid.poll('space')).toBe(false)
    expect(asked).toHaveLength(2)
  })

  it('a failed ask waits for the next round', async () => {
    const { paid } = store({ CP1: [new Error('网络异常'), order({ status: 2 })] })
    paid.note(order())
    expect(await paid.poll('fleet')).toBe(false)
    expect(paid.pending).toHaveLength(1)
    expect(await paid.poll('fleet')).toBe(true)
  })

  it('gives an order up after FOLLOW_LIMIT_MS without asking again (the page reloads once)', async () => {
    const { paid, getOrder, advance } = store({ CP1: [order()] })
    paid.note(order())
    advance(FOLLOW_LIMIT_MS - 1)
    expect(await paid.poll('fleet')).toBe(false)
    advance(1)
    expect(await paid.poll('fleet')).toBe(true)
    expect(getOrder).toHaveBeenCalledTimes(1)
    expect(paid.pending).toEqual([])
  })

  it('forgets everything on reset (another account)', () => {
    const { paid } = store()
    paid.note(order())
    paid.reset()
    expect(paid.pending).toEqual([])
  })
})
