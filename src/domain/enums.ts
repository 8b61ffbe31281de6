/** SPEC section 3 "Enumerations": every value as an `as const` object, with Chinese labels where shown. */

type ValueOf<T> = T[keyof T]

export const YesNo = { yes: 1, no: 0 } as const
export type YesNo = ValueOf<typeof YesNo>
export const yesNoLabels: Record<YesNo, string> = { 1: '是', 0: '否' }

export const ActivityEnable = { enable: 1, disable: 0 } as const
export type ActivityEnable = ValueOf<typeof ActivityEnable>
export const activityEnableLabels: Record<ActivityEnable, string> = { 1: '启用', 0: '禁用' }

export const HomeViewType = { single: 0, multi: 1 } as const
export type HomeViewType = ValueOf<typeof HomeViewType>
export const homeViewTypeLabels: Record<HomeViewType, string> = { 0: '单列', 1: '多列' }

export const PaymentMethod = { alipay: 1, wechatPay: 2 } as const
export type PaymentMethod = ValueOf<typeof PaymentMethod>
export const paymentMethodLabels: Record<PaymentMethod, string> = { 1: '支付宝', 2: '微信支付' }

export const DeviceVersionFilter = { all: 0, '10/B': 1, '10/H': 2 } as const
export type DeviceVersionFilter = ValueOf<typeof DeviceVersionFilter>
export const deviceVersionFilterLabels: Record<DeviceVersionFilter, string> = {
  0: '全部',
  1: '10/B',
  2: '10/H',
}

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
export const goodsLevelLabels: Record<GoodsLevel, string> = {
  1: '畅享',
  2: '尊享',
  3: '旗舰',
  4: '至尊',
  5: '游戏定制版',
}
/** Card theme per goods level: background gradient start/end and text colour. */
export interface CardTheme {
  from: string
  to: string
  text: string
}
export const goodsLevelThemes: Record<GoodsLevel, CardTheme> = {
  1: { from: '#5AA2FF', to: '#2F6BFF', text: '#FFFFFF' },
  2: { from: '#8C7BFF', to: '#5B45E0', text: '#FFFFFF' },
  3: { from: '#3C3F4A', to: '#16171C', text: '#F5D9A8' },
  4: { from: '#F6D79B', to: '#C8963E', text: '#4A2E00' },
  5: { from: '#FF7A59', to: '#E5363A', text: '#FFFFFF' },
}

export const PayFunction = {
  beansToMonthly: 1,
  cloudOrder: 2,
  createUpOrDownOrder: 3,
  createVideoOrder: 4,
} as const
export type PayFunction = ValueOf<typeof PayFunction>
/** Order-creating API (under /order/) per pay function. */
export const payFunctionApis: Record<PayFunction, string> = {
  1: 'createTimeToMonthOrder',
  2: 'createCloudOrder',
  3: 'createUpOrDownOrder',
  4: 'createVideoOrder',
}

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
/** A coupon of this type shows no value text (SPEC 3). */
export const COUPON_TYPE_NO_VALUE = 5
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

export const SupplierType = {
  baidu: 1,
  volcano: 2,
  fastCloudGame: 3,
  localVolcano: 4,
  lingyi: 5,
  tencent: 6,
} as const
export type SupplierType = ValueOf<typeof SupplierType>
export const supplierTypeLabels: Record<SupplierType, string> = {
  1: '百度',
  2: '火山',
  3: '快云游',
  4: '本地火山',
  5: '灵异',
  6: '腾讯',
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

export const TokenStatus = { NULL: 'NULL', NORMAL: 'NORMAL', EXPIRE: 'EXPIRE' } as const
export type TokenStatus = ValueOf<typeof TokenStatus>

export const UserType = { personal: 1, company: 2 } as const
export type UserType = ValueOf<typeof UserType>
export const userTypeLabels: Record<UserType, string> = { 1: '个人', 2: '企业' }

export const CheckStatus = { unverified: 0, pass: 1 } as const
export type CheckStatus = ValueOf<typeof CheckStatus>

/** Process definition keys (SPEC 3 constants). */
export const ProcessDefinitionKey = {
  activityApply: 'activityApply',
  contractApproval: 'contractApproval',
  projectApproval: 'projectApproval',
  projectPlanChange: 'projectPlanChange',
  projectReview: 'projectReview',
  projectReportReview: 'projectReportReview',
  knowledgeRecordReview: 'knowledgeRecordReview',
} as const

export const IMAGE_VERSION_INFO_KEY = 'imageVersionInfo'

export const WechatPayResult = { ok: 'ok', cancel: 'cancel', fail: 'fail' } as const
export type WechatPayResult = ValueOf<typeof WechatPayResult>

/** Turn a label map into NutUI-friendly `{ label, value }` options. */
export function toOptions<V extends string | number>(
  labels: Record<V, string>,
): { label: string; value: V }[] {
  return (Object.keys(labels) as string[]).map((key) => {
    const n = Number(key)
    const value = (Number.isNaN(n) ? key : n) as V
    return { label: labels[value], value }
  })
}
