/** SPEC section 3 "Enumerations": every value as an `as const` object, with Chinese labels where shown. */

type ValueOf<T> = T[keyof T]

export const HomeViewType = { single: 0, multi: 1 } as const
export type HomeViewType = ValueOf<typeof HomeViewType>

export const PaymentMethod = { alipay: 1, wechatPay: 2 } as const
export type PaymentMethod = ValueOf<typeof PaymentMethod>
export const paymentMethodLabels: Record<PaymentMethod, string> = { 1: '支付宝', 2: '微信支付' }

export const DeviceVersionFilter = { all: 0, '10/B': 1, '10/H': 2 } as const
export type DeviceVersionFilter = ValueOf<typeof DeviceVersionFilter>

export const ImageType = { base: 1, google: 2, custom: 3 } as const
export type ImageType = ValueOf<typeof ImageType>
export const imageTypeLabels: Record<ImageType, string> = {
  1: '基础镜像',
  2: '谷歌镜像',
  3: '自定义镜像',
}

export const GoodsLevel = {
  enjoy: 1,
  exclusive: 2,
  flagship: 3,
  supreme: 4,
  gameCustom: 5,
} as const
export type GoodsLevel = ValueOf<typeof GoodsLevel>

export const CouponStatus = { efficient: 1, used: 2, expired: 3, invalid: 4 } as const
export type CouponStatus = ValueOf<typeof CouponStatus>
export const couponStatusLabels: Record<CouponStatus, string> = {
  1: '可使用',
  2: '已使用',
  3: '已过期',
  4: '已失效',
}

export const BusinessType = {
  cloudMachine: 1,
  cloudMachineUpgrade: 2,
  cloudBeans: 3,
  cloudSpace: 4,
  activationCodeMall: 5,
} as const
export type BusinessType = ValueOf<typeof BusinessType>
export const businessTypeLabels: Record<BusinessType, string> = {
  1: '云机',
  2: '云机升级',
  3: '云豆',
  4: '云空间',
  5: '激活码商城',
}

/** Negative values are list markers (new, expiring, used, expired), not real coupon types. */
export const CouponType = {
  newArrival: -1,
  expiringSoon: -2,
  used: -3,
  expired: -4,
  fullVolumeReduction: 1,
  noThresholdRoll: 2,
  discountCoupon: 3,
  firstRechargeCoupon: 4,
} as const
export type CouponType = ValueOf<typeof CouponType>
export const couponTypeLabels: Record<CouponType, string> = {
  [-1]: '新到',
  [-2]: '即将过期',
  [-3]: '已使用',
  [-4]: '已过期',
  1: '满减券',
  2: '无门槛券',
  3: '折扣券',
  4: '首充券',
}

export const CouponScope = {
  fullBusiness: 1,
  productModel: 2,
  cloudVersion: 3,
  billableTimeProducts: 4,
  productDuration: 5,
  discountRatio: 6,
} as const
export type CouponScope = ValueOf<typeof CouponScope>
export const couponScopeLabels: Record<CouponScope, string> = {
  1: '全业务',
  2: '指定商品型号',
  3: '指定云机版本',
  4: '指定计费商品',
  5: '指定商品时长',
  6: '指定折扣比例',
}

export const DeviceButtonPermission = {
  changeConfig: 'changeConfig',
  upOrDownConfig: 'upOrDownConfig',
  zoneChangeOpType: 'zoneChangeOpType',
  videoChangeOpType: 'videoChangeOpType',
} as const
export type DeviceButtonPermission = ValueOf<typeof DeviceButtonPermission>

export const InventoryStatus = { adequate: 1, normal: 2, nervous: 3, insufficient: 4 } as const
export type InventoryStatus = ValueOf<typeof InventoryStatus>
export const inventoryStatusLabels: Record<InventoryStatus, string> = {
  1: '充足',
  2: '正常',
  3: '紧张',
  4: '不足',
}

export const MessageType = {
  announcement: 1,
  renewalReminder: 2,
  deviceTransfer: 3,
  createDevice: 4,
  system: 5,
} as const
export type MessageType = ValueOf<typeof MessageType>
export const messageTypeLabels: Record<MessageType, string> = {
  1: '公告',
  2: '续费提醒',
  3: '设备转移',
  4: '创建设备',
  5: '系统消息',
}

/** supplierType header value sent on every request (SPEC 6). */
export const REQUEST_SUPPLIER_TYPE = '0'

export const DeviceCommand = {
  DeepCleanVm: 'DeepCleanVm',
  CleanVm: 'CleanVm',
  CleanMem: 'CleanMem',
  Reboot: 'Reboot',
  OpenUrl: 'OpenUrl',
  GetVmCover: 'GetVmCover',
  Uninstall: 'Uninstall',
} as const
export type DeviceCommand = ValueOf<typeof DeviceCommand>

export const UserType = { personal: 1, company: 2 } as const
export type UserType = ValueOf<typeof UserType>

export const WechatPayResult = { ok: 'ok', cancel: 'cancel', fail: 'fail' } as const
export type WechatPayResult = ValueOf<typeof WechatPayResult>
