import {
  ballDrop,
  ballKeep,
  ballOverlaps,
  ballStart,
  floatingBallProblem,
  orderedShortcuts,
  type PageBox,
} from '@/domain/floating-ball'

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

/** The control page at 390×844: its title, the phone's screen (360×640) and the command buttons. */
const viewport = { width: 390, height: 844 }
const ball = { size: 48, margin: 8 }
const title: PageBox = { left: 12, top: 12, width: 366, height: 34 }
const screen: PageBox = { left: 15, top: 46, width: 360, height: 640 }
const buttons: PageBox = { left: 12, top: 700, width: 366, height: 44 }
const start = (side: string, occupied: PageBox[], height = 844) =>
  ballStart({
    viewport: { width: 390, height },
    side,
    occupied,
    screen,
    preferredTop: height * 0.45,
    ball,
  })

describe('where the floating ball starts', () => {
  it('starts on its side below the buttons, covering neither the screen nor a button', () => {
    const occupied = [title, screen, buttons]
    for (const side of ['left', 'right']) {
      const at = start(side, occupied)
      expect(at).toEqual({ left: side === 'left' ? 8 : 334, top: 752 })
      for (const box of occupied) expect(ballOverlaps(at.left, at.top, 48, box)).toBe(false)
    }
  })
  it('keeps the preferred height where nothing is beside the page (a wide window)', () => {
    const centred = { ...screen, left: 460 }
    expect(
      ballStart({
        viewport: { width: 1280, height: 800 },
        side: 'right',
        occupied: [centred],
        screen: centred,
        preferredTop: 360,
        ball,
      }),
    ).toEqual({ left: 1224, top: 360 })
  })
  it('takes the nearest free height, above as well as below', () => {
    const band: PageBox = { left: 0, top: 300, width: 390, height: 100 }
    expect(start('left', [band], 800)).toEqual({ left: 8, top: 408 })
    const low: PageBox = { left: 0, top: 330, width: 390, height: 470 }
    expect(start('left', [low], 800)).toEqual({ left: 8, top: 274 })
  })
  it("sits on the screen's bottom corner, the navigation bar's, when no free place is on screen", () => {
    expect(start('left', [title, screen, buttons], 700)).toEqual({ left: 15, top: 638 })
    expect(start('right', [title, screen, buttons], 700)).toEqual({ left: 327, top: 638 })
  })
})

describe('dragging the floating ball', () => {
  it('follows the pointer but stays wholly on screen', () => {
    expect(ballKeep(viewport, ball, 100, 200)).toEqual({ left: 100, top: 200 })
    expect(ballKeep(viewport, ball, -30, -5)).toEqual({ left: 0, top: 0 })
    expect(ballKeep(viewport, ball, 500, 900)).toEqual({ left: 342, top: 796 })
  })
  it('rests on the nearer side at the height it was dropped', () => {
    expect(ballDrop(viewport, ball, 140, 250)).toEqual({ side: 'left', left: 8, top: 250 })
    expect(ballDrop(viewport, ball, 180, 250)).toEqual({ side: 'right', left: 334, top: 250 })
  })
  it('keeps a drop at the top or bottom edge inside the margin', () => {
    expect(ballDrop(viewport, ball, 0, 0)).toEqual({ side: 'left', left: 8, top: 8 })
    expect(ballDrop(viewport, ball, 342, 796)).toEqual({ side: 'right', left: 334, top: 788 })
  })
})
