import {
  androidVersionLabel,
  durationLabel,
  imageTypeLabel,
  INVENTORY_STATUS_TEXT,
  inventoryStatus,
  levelInfo,
  LEVELS,
} from '@/domain/catalogue'

describe('goods levels', () => {
  it('lists the five levels with their names and theme colours, in order', () => {
    expect(LEVELS.map((l) => [l.level, l.name, l.themeColor])).toEqual([
      [1, '畅享版', '#2F5FE8'],
      [2, '尊享版', '#6A45F0'],
      [3, '旗舰版', '#B34D00'],
      [4, '至尊版', '#8F6B00'],
      [5, '游戏定制版', '#007D59'],
    ])
  })
  it('looks a level up by number and knows an unknown one', () => {
    expect(levelInfo(3)?.name).toBe('旗舰版')
    expect(levelInfo(6)).toBeUndefined()
  })
})

describe('inventory status from stock', () => {
  it.each([
    [1000, 1],
    [50, 1],
    [49, 2],
    [10, 2],
    [9, 3],
    [1, 3],
    [0, 4],
  ])('stock %i is status %i', (stock, status) => {
    expect(inventoryStatus(stock)).toBe(status)
  })
  it('shows 充足/正常/紧张/售罄', () => {
    expect(INVENTORY_STATUS_TEXT).toEqual({ 1: '充足', 2: '正常', 3: '紧张', 4: '售罄' })
  })
})

describe('android version and image labels', () => {
  it('labels B and H as Android 10 variants', () => {
    expect(androidVersionLabel('B')).toBe('安卓10/B')
    expect(androidVersionLabel('H')).toBe('安卓10/H')
  })
  it('names the three image types', () => {
    expect([1, 2, 3].map((t) => imageTypeLabel(t as 1 | 2 | 3))).toEqual([
      '基础镜像',
      '谷歌镜像',
      '自定义镜像',
    ])
  })
})

describe('duration labels', () => {
  it.each([
    [1, '1天'],
    [7, '7天'],
    [30, '1个月'],
    [90, '3个月'],
    [180, '半年'],
    [365, '1年'],
    [15, '15天'],
  ])('%i days reads %s', (days, label) => {
    expect(durationLabel(days)).toBe(label)
  })
})
