import { applicableCoupons, heldCoupon } from '../coupon-fixtures'
import { configure } from '@testing-library/react'
import type { Goods, GoodsPrice, OrderInfo, Quote, ZoneStock } from '@/types/api'

// quotes are debounced (300 ms): give page updates time on a busy machine
configure({ asyncUtilTimeout: 3000 })

export const price = (over: Partial<GoodsPrice> = {}): GoodsPrice => ({
  priceId: 11,
  goodId: 1,
  goodTime: 30,
  durationLabel: '1个月',
  goodPrice: 9900,
  oldGoodPrice: 12900,
  firstPurchasePrice: null,
  firstCount: 0,
  activityId: null,
  activityPrice: null,
  activityEndsAt: null,
  activityRunning: false,
  ...over,
})

export const zone = (over: Partial<ZoneStock> = {}): ZoneStock => ({
  zoneId: 1,
  name: '华东-上海',
  inventoryStatus: 1,
  statusText: '充足',
  ...over,
})

export const goods = (over: Partial<Goods> = {}): Goods => ({
  goodId: 1,
  level: 1,
  levelName: '畅享版',
  themeColor: '#2F5FE8',
  name: '畅享版 4核4G',
  configName: '4核CPU 4G内存 64G存储',
  androidVersion: 'B',
  androidVersionLabel: '安卓10/B',
  imageType: 1,
  imageTypeLabel: '基础镜像',
  maxPerOrder: 20,
  description: '',
  permissions: [],
  videoDailyFee: null,
  prices: [
    price({ priceId: 10, goodTime: 7, durationLabel: '7天', goodPrice: 2900, oldGoodPrice: null }),
    price(),
  ],
  zones: [
    zone(),
    zone({ zoneId: 2, name: '华南-广州', inventoryStatus: 3, statusText: '紧张' }),
    zone({ zoneId: 3, name: '华北-北京', inventoryStatus: 4, statusText: '售罄' }),
  ],
  ...over,
})

export const quote = (over: Partial<Quote> = {}): Quote => ({
  total: 9900,
  originalAmount: 12900,
  lines: [{ label: '原价', unitPrice: 9900, quantity: 1, amount: 9900 }],
  ...over,
})

export const order = (over: Partial<OrderInfo> = {}): OrderInfo => ({
  orderNo: 'CP20261122000001',
  kind: 'new',
  businessType: 1,
  status: 0,
  statusText: '待支付',
  amount: 9900,
  originalAmount: 12900,
  quantity: 1,
  goodId: 1,
  goodsName: '畅享版 4核4G',
  priceId: 11,
  goodTime: 30,
  durationLabel: '1个月',
  zoneId: 1,
  zoneName: '华东-上海',
  deviceIds: [],
  codes: [],
  payMethod: null,
  payDeadline: Date.now() + 15 * 60_000,
  createdAt: Date.now(),
  paidAt: null,
  completedAt: null,
  payLink: null,
  remark: null,
  lines: [{ label: '原价', unitPrice: 9900, quantity: 1, amount: 9900 }],
  renewals: [],
  isOwner: true,
  ...over,
})

export const session = (over: Record<string, unknown> = {}) => ({
  session: {
    isLoggedIn: true,
    runtime: 'h5',
    userType: 1,
    loadUserInfo: jest.fn().mockResolvedValue(undefined),
    ...over,
  },
  // the renewal page takes a studio's selection (and the phones already loaded) from the fleet
  fleet: { devices: [], selectedIds: [] },
})

export { heldCoupon }

/** /coupon/applicable's answer for one cloud phone of `total` fen when the buyer holds no coupon. */
export const noCoupons = (total: number) => applicableCoupons({ total })
