import {
  ACTIVITY_SUMMARY_MAX,
  ACTIVITY_TITLE_MAX,
  COMMON_CONFIG_FIELDS,
  MAX_SECKILL_STOCK,
  stockBelowTaken,
  validateActivityEdit,
  validateCommonConfig,
  validateHttpsUrl,
  validateSeckillItemEdit,
  validateText,
  type CommonConfigEdit,
} from '@/domain/console/settings-edits'
import { MAX_PRICE_FEN } from '@/domain/console/catalogue-edits'

const common: CommonConfigEdit = {
  renewalReminderMsg: '您的云手机已到期，请及时续费',
  customerServicePhone: '400-820-8820',
  customerServiceHours: '每天 9:00-21:00',
}

describe('validateText', () => {
  it('accepts a one-line text up to its length, counted in characters', () => {
    expect(validateText('标题', '秒杀', 2)).toBeNull()
    // an emoji is two UTF-16 units but one character
    expect(validateText('标题', '😀😀', 2)).toBeNull()
    expect(validateText('标题', '秒杀了', 2)).toBe('标题最多2个字')
  })

  it.each([
    ['', '标题不能为空'],
    ['   ', '标题不能为空'],
    [' 秒杀', '标题首尾不能有空格'],
    ['秒\u0000杀', '标题不能包含换行或控制字符'],
    ['秒\n杀', '标题不能包含换行或控制字符'],
    ['秒\u001b杀', '标题不能包含换行或控制字符'],
    ['秒\u007f杀', '标题不能包含换行或控制字符'],
    ['秒\u0085杀', '标题不能包含换行或控制字符'],
  ])('refuses %j', (value, message) => {
    expect(validateText('标题', value, 60)).toBe(message)
  })

  it('refuses what is not text', () => {
    expect(validateText('标题', null, 60)).toBe('标题须为文本')
    expect(validateText('标题', 12, 60)).toBe('标题须为文本')
  })
})

describe('validateCommonConfig', () => {
  it('accepts the seeded texts', () => {
    expect(validateCommonConfig(common)).toBeNull()
  })

  it('names the first field that breaks a rule, by its console label', () => {
    const max = COMMON_CONFIG_FIELDS.renewalReminderMsg.max
    expect(validateCommonConfig({ ...common, renewalReminderMsg: '续'.repeat(max + 1) })).toBe(
      `到期续费提醒最多${max}个字`,
    )
    expect(validateCommonConfig({ ...common, customerServicePhone: '' })).toBe('客服电话不能为空')
    expect(validateCommonConfig({ ...common, customerServiceHours: '9\u0000点' })).toBe(
      '客服时间不能包含换行或控制字符',
    )
  })
})

describe('validateHttpsUrl', () => {
  it('accepts an absolute https address', () => {
    expect(validateHttpsUrl('客服地址', 'https://kefu.example.com/chat?id=1')).toBeNull()
  })

  it.each([
    ['http://kefu.example.com', '客服地址须以 https:// 开头'],
    ['javascript:alert(1)', '客服地址须以 https:// 开头'],
    ['kefu.example.com', '客服地址不是有效的网址'],
    ['https://user:pw@kefu.example.com', '客服地址不能包含账号或密码'],
    ['', '客服地址不能为空'],
  ])('refuses %j', (value, message) => {
    expect(validateHttpsUrl('客服地址', value)).toBe(message)
  })
})

describe('validateActivityEdit', () => {
  const activity = {
    title: '限时秒杀',
    summary: '7 天仅需 1 元',
    startsAt: 1_000,
    endsAt: 2_000,
    enabled: true,
  }

  it('accepts a window that starts before it ends', () => {
    expect(validateActivityEdit(activity)).toBeNull()
  })

  it('refuses a window that does not', () => {
    expect(validateActivityEdit({ ...activity, endsAt: 1_000 })).toBe('开始时间须早于结束时间')
    expect(validateActivityEdit({ ...activity, endsAt: 999 })).toBe('开始时间须早于结束时间')
  })

  it('refuses times that are not instants and titles that break the text rules', () => {
    expect(validateActivityEdit({ ...activity, startsAt: 0 })).toBe('开始时间无效')
    expect(validateActivityEdit({ ...activity, endsAt: 1.5e3 + 0.5 })).toBe('结束时间无效')
    expect(validateActivityEdit({ ...activity, endsAt: 1e20 })).toBe('结束时间无效')
    expect(validateActivityEdit({ ...activity, title: 'x'.repeat(ACTIVITY_TITLE_MAX + 1) })).toBe(
      `活动标题最多${ACTIVITY_TITLE_MAX}个字`,
    )
    expect(validateActivityEdit({ ...activity, summary: '' })).toBe('活动简介不能为空')
    expect(
      validateActivityEdit({ ...activity, summary: 'x'.repeat(ACTIVITY_SUMMARY_MAX + 1) }),
    ).toBe(`活动简介最多${ACTIVITY_SUMMARY_MAX}个字`)
  })
})

describe('validateSeckillItemEdit', () => {
  const item = { price: 100, stock: 5, sort: 1 }

  it('accepts a price above 0 fen and stock at or above what is taken', () => {
    expect(validateSeckillItemEdit(item, 0)).toBeNull()
    expect(validateSeckillItemEdit(item, 5)).toBeNull()
    expect(validateSeckillItemEdit({ ...item, stock: 0 }, 0)).toBeNull()
  })

  it('refuses stock below the units sold or held', () => {
    expect(validateSeckillItemEdit({ ...item, stock: 2 }, 3)).toBe(stockBelowTaken(3))
    expect(stockBelowTaken(3)).toBe('库存不能少于已售出和待支付占用的 3 件')
  })

  it.each([
    [{ price: 0 }, '秒杀价须为'],
    [{ price: 1.5 }, '秒杀价须为'],
    [{ price: MAX_PRICE_FEN + 1 }, '秒杀价须为'],
    [{ stock: -1 }, '库存须为'],
    [{ stock: MAX_SECKILL_STOCK + 1 }, '库存须为'],
    [{ sort: -1 }, '排序须为'],
  ])('refuses %j', (change, start) => {
    expect(validateSeckillItemEdit({ ...item, ...change }, 0)).toMatch(new RegExp(`^${start}`))
  })
})
