import * as E from '@/domain/enums'
import {
  LOGIN_EXPIRED_MESSAGE,
  RESOLVED_CODES,
  ResultCode,
  resultMessages,
  WHOLE_BODY_CODES,
} from '@/domain/result-codes'

describe('SPEC 3 enumerations', () => {
  it('yes/no, activity enable, home view type, payment method, device version filter, image type', () => {
    expect(E.YesNo).toEqual({ yes: 1, no: 0 })
    expect(E.ActivityEnable).toEqual({ enable: 1, disable: 0 })
    expect(E.HomeViewType).toEqual({ single: 0, multi: 1 })
    expect(E.PaymentMethod).toEqual({ alipay: 1, wechatPay: 2 })
    expect(E.DeviceVersionFilter).toEqual({ all: 0, '10/B': 1, '10/H': 2 })
    expect(E.deviceVersionFilterLabels).toEqual({ 0: '全部', 1: '10/B', 2: '10/H' })
    expect(E.ImageType).toEqual({ base: 1, google: 2, custom: 3 })
  })
  it('goods levels 1-5 with their names and a card theme each', () => {
    expect(E.GoodsLevel).toEqual({ enjoy: 1, exclusive: 2, flagship: 3, supreme: 4, gameCustom: 5 })
    expect(E.goodsLevelLabels).toEqual({
      1: '畅享',
      2: '尊享',
      3: '旗舰',
      4: '至尊',
      5: '游戏定制版',
    })
    for (const level of Object.values(E.GoodsLevel)) {
      expect(E.goodsLevelThemes[level].from).toMatch(/^#[0-9A-F]{6}$/i)
    }
  })
  it('pay functions and their order APIs', () => {
    expect(E.PayFunction).toEqual({
      beansToMonthly: 1,
      cloudOrder: 2,
      createUpOrDownOrder: 3,
      createVideoOrder: 4,
    })
    expect(E.payFunctionApis).toEqual({
      1: 'createTimeToMonthOrder',
      2: 'createCloudOrder',
      3: 'createUpOrDownOrder',
      4: 'createVideoOrder',
    })
  })
  it('coupon status, business type, coupon type with its negative markers, coupon scope', () => {
    expect(E.CouponStatus).toEqual({ efficient: 1, used: 2, expired: 3, invalid: 4 })
    expect(E.BusinessType).toEqual({
      cloudMachine: 1,
      cloudMachineUpgrade: 2,
      cloudBeans: 3,
      cloudSpace: 4,
      activationCodeMall: 5,
    })
    expect(E.CouponType).toEqual({
      newArrival: -1,
      expiringSoon: -2,
      used: -3,
      expired: -4,
      fullVolumeReduction: 1,
      noThresholdRoll: 2,
      discountCoupon: 3,
      firstRechargeCoupon: 4,
    })
    expect(E.COUPON_TYPE_NO_VALUE).toBe(5)
    expect(E.CouponScope).toEqual({
      fullBusiness: 1,
      productModel: 2,
      cloudVersion: 3,
      billableTimeProducts: 4,
      productDuration: 5,
      discountRatio: 6,
    })
  })
  it('device button permissions and device commands', () => {
    expect(Object.values(E.DeviceButtonPermission)).toEqual([
      'changeConfig',
      'upOrDownConfig',
      'zoneChangeOpType',
      'videoChangeOpType',
    ])
    expect(Object.values(E.DeviceCommand)).toEqual([
      'DeepCleanVm',
      'CleanVm',
      'CleanMem',
      'Reboot',
      'OpenUrl',
      'GetVmCover',
      'Uninstall',
    ])
  })
  it('inventory status with Chinese labels', () => {
    expect(E.InventoryStatus).toEqual({ adequate: 1, normal: 2, nervous: 3, insufficient: 4 })
    expect(E.inventoryStatusLabels).toEqual({ 1: '充足', 2: '正常', 3: '紧张', 4: '不足' })
  })
  it('message types', () => {
    expect(E.MessageType).toEqual({
      announcement: 1,
      renewalReminder: 2,
      deviceTransfer: 3,
      createDevice: 4,
      system: 5,
    })
    expect(E.messageTypeLabels).toEqual({
      1: '公告',
      2: '续费提醒',
      3: '设备转移',
      4: '创建设备',
      5: '系统消息',
    })
  })
  it('supplier types, token status, user type, check status', () => {
    expect(E.SupplierType).toEqual({
      baidu: 1,
      volcano: 2,
      fastCloudGame: 3,
      localVolcano: 4,
      lingyi: 5,
      tencent: 6,
    })
    expect(E.REQUEST_SUPPLIER_TYPE).toBe('0')
    expect(E.TokenStatus).toEqual({ NULL: 'NULL', NORMAL: 'NORMAL', EXPIRE: 'EXPIRE' })
    expect(E.UserType).toEqual({ personal: 1, company: 2 })
    expect(E.CheckStatus.pass).toBe(1)
  })
  it('turns a label map into options', () => {
    expect(E.toOptions(E.paymentMethodLabels)).toEqual([
      { label: '支付宝', value: 1 },
      { label: '微信支付', value: 2 },
    ])
  })
})

describe('SPEC 8 result codes', () => {
  const table: [number, keyof typeof ResultCode][] = [
    [200, 'RESULT_OK'],
    [1000, 'USER_NOT_REGISTERED'],
    [1001, 'USER_REGISTERED'],
    [1002, 'USER_ID_EMPTY'],
    [1003, 'PASSWORD_OR_PHONE_EMPTY'],
    [1004, 'WECHAT_ACCOUNT_EMPTY'],
    [1005, 'VERIFICATION_CODE_EMPTY'],
    [1006, 'VERIFICATION_CODE_WRONG'],
    [1007, 'ONE_KEY_LOGIN_FAILED'],
    [1008, 'PHONE_VERIFICATION_FAILED'],
    [1009, 'OLD_PASSWORD_WRONG'],
    [1010, 'PASSWORD_VERIFICATION_FAILED'],
    [1011, 'SMS_SEND_FAILED'],
    [1012, 'SMS_TYPE_FAILED'],
    [1013, 'SMS_NEED_NOT_RESEND'],
    [1014, 'GOODS_QUANTITY_OVER_LIMIT'],
    [1015, 'CLOUD_BEANS_INSUFFICIENT'],
    [1016, 'PRICE_INCONSISTENT'],
    [1017, 'CLOUD_OUT_OF_STOCK'],
    [1018, 'GROUP_OPERATION_TYPE_EMPTY'],
    [1019, 'STARTUP_STANDARD_NOT_MET'],
    [1020, 'SMS_DAILY_QUOTA_USED'],
    [1021, 'ORDER_AMOUNT_ZERO'],
    [1022, 'GOODS_NOT_EXIST'],
    [1023, 'ORDER_PRICE_INCONSISTENT'],
    [1024, 'DATA_EXPANSION_FAILED'],
    [1025, 'INSUFFICIENT_ACCOUNT_BALANCE'],
    [1026, 'OVER_CLOUD_SPACE'],
    [1027, 'BACKUP_FAILED'],
    [1028, 'TASK_NOT_EXIST'],
    [1029, 'FILE_EMPTY'],
    [1030, 'FILE_EXISTS'],
    [1031, 'GET_DEVICE_FAILED'],
    [1032, 'BACKUP_FAILURE_EXISTS'],
    [1033, 'DEVICE_NOT_SHUT_DOWN'],
    [1034, 'BACKUP_IN_PROGRESS'],
    [1035, 'RECOVERING'],
    [1039, 'NOT_ENOUGH_CLOUD_SPACE'],
    [1057, 'ACCOUNT_HAS_BEEN_FROZEN'],
    [1065, 'IN_BACKUP_OR_RECOVERY'],
    [1072, 'TASK_INTERRUPTED'],
    [1080, 'SHOW_ERROR_TIPS'],
    [1082, 'DELETE_ERROR'],
    [1083, 'ILLEGAL_FILE'],
    [1090, 'APP_DOES_NOT_EXIST'],
    [1330, 'CAN_NOT_DO_TRANSFER'],
    [1331, 'MUST_SET_PASSWORD'],
    [2017, 'LOGIN_TOKEN_INVALID'],
  ]
  it.each(table)('%i is %s with a Chinese message', (code, name) => {
    expect(ResultCode[name]).toBe(code)
    expect(resultMessages[code as keyof typeof resultMessages]).toMatch(/[\u4e00-\u9fa5]/)
  })
  it('has exactly the SPEC codes', () => {
    expect(Object.values(ResultCode).sort((a, b) => a - b)).toEqual(
      table.map(([code]) => code).sort((a, b) => a - b),
    )
  })
  it('resolves OK and the three soft codes; rejects three codes with the whole body', () => {
    expect([...RESOLVED_CODES].sort((a, b) => a - b)).toEqual([200, 1017, 1025, 1026])
    expect([...WHOLE_BODY_CODES].sort((a, b) => a - b)).toEqual([1057, 1090, 1330])
    expect(LOGIN_EXPIRED_MESSAGE).toBe('登录已过期，请重新登录')
  })
})
