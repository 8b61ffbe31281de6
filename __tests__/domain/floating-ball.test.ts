import { floatingBallProblem, orderedShortcuts } from '@/domain/floating-ball'

const form = { visible: true, side: 'right', opacity: 80, shortcuts: ['返回'] }

describe('floating ball rules', () => {
  it('accepts 30–100 whole percents on either side', () => {
    for (const opacity of [30, 65, 100])
      expect(floatingBallProblem({ ...form, opacity })).toBeNull()
    expect(floatingBallProblem({ ...form, side: 'left', shortcuts: [] })).toBeNull()
  })
  it('names what is wrong', () => {
    expect(floatingBallProblem({ ...form, opacity: 29 })).toBe('透明度需在30%到100%之间')
    expect(floatingBallProblem({ ...form, opacity: 50.5 })).toBe('透明度需在30%到100%之间')
    expect(floatingBallProblem({ ...form, side: 'middle' })).toBe('悬浮球位置只能是左侧或右侧')
    expect(floatingBallProblem({ ...form, shortcuts: ['关机'] })).toBe('不支持的快捷功能：关机')
  })
  it('keeps shortcuts in display order without repeats', () => {
    expect(orderedShortcuts(['清理内存', '返回', '清理内存', '截图'])).toEqual([
      '返回',
      '截图',
      '清理内存',
    ])
  })
})
