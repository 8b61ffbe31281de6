/** SPEC section 8: every result code the API can answer with, and its default Chinese message. */
export const ResultCode = {
  RESULT_OK: 200,
  USER_NOT_REGISTERED: 1000,
  USER_REGISTERED: 1001,
  USER_ID_EMPTY: 1002,
  PASSWORD_OR_PHONE_EMPTY: 1003,
  WECHAT_ACCOUNT_EMPTY: 1004,
  VERIFICATION_CODE_EMPTY: 1005,
  VERIFICATION_CODE_WRONG: 1006,
  ONE_KEY_LOGIN_FAILED: 1007,
  PHONE_VERIFICATION_FAILED: 1008,
  OLD_PASSWORD_WRONG: 1009,
  PASSWORD_VERIFICATION_FAILED: 1010,
  SMS_SEND_FAILED: 1011,
  SMS_TYPE_FAILED: 1012,
  SMS_NEED_NOT_RESEND: 1013,
  GOODS_QUANTITY_OVER_LIMIT: 1014,
  CLOUD_BEANS_INSUFFICIENT: 1015,
  PRICE_INCONSISTENT: 1016,
  CLOUD_OUT_OF_STOCK: 1017,
  GROUP_OPERATION_TYPE_EMPTY: 1018,
  STARTUP_STANDARD_NOT_MET: 1019,
  SMS_DAILY_QUOTA_USED: 1020,
  ORDER_AMOUNT_ZERO: 1021,
  GOODS_NOT_EXIST: 1022,
  ORDER_PRICE_INCONSISTENT: 1023,
  DATA_EXPANSION_FAILED: 1024,
  INSUFFICIENT_ACCOUNT_BALANCE: 1025,
  OVER_CLOUD_SPACE: 1026,
  BACKUP_FAILED: 1027,
  TASK_NOT_EXIST: 1028,
  FILE_EMPTY: 1029,
  FILE_EXISTS: 1030,
  GET_DEVICE_FAILED: 1031,
  BACKUP_FAILURE_EXISTS: 1032,
  DEVICE_NOT_SHUT_DOWN: 1033,
  BACKUP_IN_PROGRESS: 1034,
  RECOVERING: 1035,
  NOT_ENOUGH_CLOUD_SPACE: 1039,
  ACCOUNT_HAS_BEEN_FROZEN: 1057,
  IN_BACKUP_OR_RECOVERY: 1065,
  TASK_INTERRUPTED: 1072,
  SHOW_ERROR_TIPS: 1080,
  DELETE_ERROR: 1082,
  ILLEGAL_FILE: 1083,
  APP_DOES_NOT_EXIST: 1090,
  CAN_NOT_DO_TRANSFER: 1330,
  MUST_SET_PASSWORD: 1331,
  LOGIN_TOKEN_INVALID: 2017,
} as const

export type ResultCodeName = keyof typeof ResultCode
export type ResultCodeValue = (typeof ResultCode)[ResultCodeName]

export const resultMessages: Record<ResultCodeValue, string> = {
  200: '成功',
  1000: '用户未注册',
  1001: '该手机号已注册',
  1002: '用户ID为空',
  1003: '手机号或密码为空',
  1004: '微信账号为空',
  1005: '验证码为空',
  1006: '验证码错误或已失效',
  1007: '一键登录认证失败',
  1008: '手机号校验失败',
  1009: '原密码错误',
  1010: '密码校验失败',
  1011: '短信发送失败',
  1012: '短信类型错误',
  1013: '验证码已发送，请勿重复获取',
  1014: '商品数量超出限制',
  1015: '云豆数量不足',
  1016: '价格不一致或商品有误',
  1017: '库存不足',
  1018: '分组操作类型为空',
  1019: '不满足开机标准',
  1020: '今日短信次数已用完',
  1021: '订单金额不能为0',
  1022: '商品不存在',
  1023: '订单价格不一致',
  1024: '数据扩容失败',
  1025: '账户余额不足',
  1026: '超出云空间容量',
  1027: '备份失败',
  1028: '任务不存在',
  1029: '文件为空',
  1030: '文件已存在',
  1031: '获取设备失败',
  1032: '存在备份失败的记录',
  1033: '设备未关机，无法删除',
  1034: '正在备份或跨区开机失败',
  1035: '正在恢复或跨区交换失败',
  1039: '云空间不足',
  1057: '账号已被冻结',
  1065: '设备正在备份或恢复中',
  1072: '任务已中断',
  1080: '操作失败',
  1082: '删除失败',
  1083: '非法文件',
  1090: '应用不存在',
  1330: '该设备暂不能转移',
  1331: '请先设置登录密码',
  2017: '登录已过期，请重新登录',
}

/** Codes the client resolves with (SPEC 8): pages handle the last three themselves. */
export const RESOLVED_CODES: readonly number[] = [
  ResultCode.RESULT_OK,
  ResultCode.INSUFFICIENT_ACCOUNT_BALANCE,
  ResultCode.OVER_CLOUD_SPACE,
  ResultCode.CLOUD_OUT_OF_STOCK,
]

/** Codes the client rejects with the whole body instead of just msg (SPEC 8). */
export const WHOLE_BODY_CODES: readonly number[] = [
  ResultCode.APP_DOES_NOT_EXIST,
  ResultCode.ACCOUNT_HAS_BEEN_FROZEN,
  ResultCode.CAN_NOT_DO_TRANSFER,
]

/**
 * The operator console's own codes (/vmcloud/admin/api only; never sent to the user site, so not
 * SPEC 8's). The envelope is the same {code,msg,data,ts}.
 */
export const OperatorCode = {
  /** No operator session, or it expired or was ended: sign in again. */
  NOT_SIGNED_IN: 4001,
  /** Sign-in refused, whichever part was wrong. */
  SIGN_IN_FAILED: 4002,
  /** The operator's role may not do this. */
  FORBIDDEN: 4003,
  /** An unsafe request without the session's x-csrf-token: reload the console. */
  CSRF_REFUSED: 4004,
  /** Create: the name is taken. */
  NAME_TAKEN: 4005,
  /** No such operator. */
  OPERATOR_NOT_FOUND: 4006,
  /** Password change: current password or TOTP code wrong. */
  CREDENTIALS_WRONG: 4007,
  /** An admin may not disable their own account. */
  CANNOT_DISABLE_SELF: 4008,
  /** 用户 pages: no such user (or the account was deleted). */
  USER_NOT_FOUND: 4020,
  /** Company verify/reject: the user has no request waiting for a decision. */
  NO_COMPANY_REQUEST: 4021,
  /** 商品与价格: the row changed since the operator read it (another operator's edit); nothing written. */
  CATALOGUE_CHANGED: 4030,
  /** 商品与价格: no such goods, price row or zone. */
  CATALOGUE_NOT_FOUND: 4031,
  /** 商品与价格: the edit breaks a catalogue rule (src/domain/console/catalogue-edits.ts); msg says which. */
  CATALOGUE_INVALID: 4032,
  /** 订单与支付: no such order. */
  ORDER_NOT_FOUND: 4040,
  /** Refund: the order was never paid (unpaid, cancelled, timed out). */
  ORDER_NOT_PAID: 4041,
  /** Refund: the order is refunded already. */
  ORDER_ALREADY_REFUNDED: 4042,
  /** Refund: the order's refund is still on its way through the provider. */
  ORDER_REFUNDING: 4043,
  /** Refund: what this kind of order delivered cannot be taken back (docs/decisions.md). */
  ORDER_NOT_REFUNDABLE: 4044,
  /** Refund: the order's phones expired, were released, moved to another user, or renewed since. */
  ORDER_PHONES_CHANGED: 4045,
  /** 云手机 and 任务 pages: no such phone. */
  DEVICE_NOT_FOUND: 4050,
  /** Retry provisioning: only a phone in 创建失败 is created again. */
  DEVICE_NOT_FAILED: 4051,
  /** Release: the phone is released already. */
  DEVICE_RELEASED: 4052,
  /** 任务: no such job. */
  JOB_NOT_FOUND: 4053,
  /** 任务: only a failed job, or one stuck past its lease, is put back. */
  JOB_NOT_RETRYABLE: 4054,
  /**
   * Reset (重置): the phone is not running (creating, rebooting, expired, failed), or another operation
   * holds it (a backup or restore, a zone change, a replacement, a system update).
   */
  DEVICE_NOT_RESETTABLE: 4055,
  /** Reset: the supplier refused or could not be asked; nothing changed, it may be tried again. */
  DEVICE_RESET_REFUSED: 4056,
  /**
   * Release or reset: the phone has a renewal, up/downgrade or video order not yet delivered (the
   * message names it): released, the order's delivery would be refunded, with every phone it renews.
   */
  DEVICE_PLAN_ORDER_OPEN: 4060,
  /**
   * 供应商映射, with ACEP running: the mapping of a goods on sale or of a zone cannot be cleared (ACEP
   * could not provision it, and the start-up check would refuse the next start).
   */
  MAPPING_IN_USE: 4058,
  /** 商品与价格, with ACEP running: a goods without its ACEP configuration code cannot go on sale. */
  MAPPING_MISSING: 4059,
  /** 优惠券: no such template. */
  COUPON_TEMPLATE_NOT_FOUND: 4070,
  /** 优惠券: the template breaks a rule of src/domain/coupon.ts (templateProblem); msg says which. */
  COUPON_TEMPLATE_INVALID: 4071,
  /** 优惠券: this issue request id was already used for another template or target. */
  COUPON_ISSUE_CONFLICT: 4072,
  /** 设置: the edit breaks a rule of src/domain/console/settings-edits.ts; msg says which. */
  SETTINGS_INVALID: 4095,
  /** 设置: the value was changed by another operator since it was read, or is gone: read it again. */
  SETTINGS_CHANGED: 4096,
} as const
export type OperatorCodeValue = (typeof OperatorCode)[keyof typeof OperatorCode]

export const operatorMessages: Record<OperatorCodeValue, string> = {
  4001: '操作员未登录',
  4002: '账号、密码或动态码错误',
  4003: '无权执行此操作',
  4004: '页面已过期，请刷新后重试',
  4005: '该账号名已存在',
  4006: '操作员不存在',
  4007: '当前密码或动态码错误',
  4008: '不能停用自己的账号',
  4020: '用户不存在',
  4021: '该用户没有待审核的企业认证',
  4030: '该数据已被其他操作员修改，请刷新后重试',
  4031: '商品、价格或地区不存在',
  4032: '修改不符合商品规则',
  4040: '订单不存在',
  4041: '订单未支付，无需退款',
  4042: '订单已退款',
  4043: '订单正在退款中',
  4044: '该类订单交付后无法收回，不能退款',
  4045: '该订单的云手机已到期、释放、转移或续费，无法退款',
  4050: '云手机不存在',
  4051: '只有创建失败的云手机可以重新创建',
  4052: '该云手机已释放',
  4053: '任务不存在',
  4054: '只有失败或卡住的任务可以重试',
  4055: '云手机不在运行中或正在进行其他操作（重启、备份、恢复、更换地区、更换云机、系统更新），请稍后再试',
  4056: '云手机服务商未接受重置，请稍后重试',
  4060: '该云手机有未完成的订单，请待订单完成或取消后再操作',
  4058: '该商品在售或该地区在用，当前供应商（火山引擎）需要它的映射，不能清除',
  4059: '该商品还没有火山引擎配置映射，请先在供应商映射中填写后再上架',
  4070: '优惠券模板不存在',
  4071: '优惠券模板不符合规则',
  4072: '该发放请求已用于其他发放，请重新打开发放窗口',
  4095: '设置不符合规则',
  4096: '该设置已被其他操作员修改或已不存在，请刷新后重试',
}

export const LOGIN_EXPIRED_MESSAGE = resultMessages[ResultCode.LOGIN_TOKEN_INVALID]

export interface ApiEnvelope<T = unknown> {
  code: number
  msg: string
  data: T
  ts: number
}
