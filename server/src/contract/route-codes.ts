/**
 * Long because it is a table, one entry per route; its logic is the four small functions around it.
 *
 * The SPEC 8 result codes each /vmcloud/api route can answer besides 200, in one table: the client's
 * error matrix (__tests__/pages/error-matrix/) renders the page that makes each call and answers
 * it with each code here, and the OpenAPI document shows them as `x-result-codes`. Server tests keep it
 * truthful: a test fails when a route answers a code it does not declare
 * (server/test/helpers/route-codes-check.ts), and route-codes.test.ts fails for a route missing here.
 * Framework answers are not SPEC 8 codes (SPEC 8 has none for a malformed request) and are not listed:
 * 400 for a request its schema refuses, text the database cannot store or nesting too deep
 * (plugins/text-input.ts), 404, 413, 429, 500.
 * Seeded from every `new BizError(…)` a route's handler can reach (a TypeScript reference walk) and the
 * codes a run of the whole server suite saw (ROUTE_CODES_RECORD=<file> npm run test:server appends
 * "route<TAB>code" lines instead of failing). A new refusal: add its code to its routes here.
 */
import { ResultCode, resultMessages } from '#domain/result-codes'

const C = ResultCode

/** What the auth hook answers on every route that needs a login (plugins/auth.ts). */
export const SIGNED_IN_CODES = [C.LOGIN_TOKEN_INVALID, C.ACCOUNT_HAS_BEEN_FROZEN] as const

/** 'POST /device/rename'; path parameters as OpenAPI writes them (`{instanceId}`, not `:instanceId`). */
export const routeKey = (method: string, url: string) =>
  `${method.toUpperCase()} ${url.replace(/:(\w+)/g, '{$1}')}`

export const isResultCode = (code: number) =>
  code !== C.RESULT_OK && (resultMessages as Record<number, string | undefined>)[code] !== undefined

/** 'METHOD /path' (without /vmcloud/api) → the codes besides 200 it can answer. */
export const ROUTE_CODES: Readonly<Record<string, readonly number[]>> = {
  'GET /CommodityGroup/getGoodsDetail': [C.GOODS_NOT_EXIST],
  'GET /CommodityGroup/getGoodsList': [],
  'GET /CommodityGroup/getZones': [],
  'GET /activation/myCodes': [...SIGNED_IN_CODES],
  'GET /activity/detail': [C.SHOW_ERROR_TIPS],
  'GET /activity/list': [],
  'GET /app/install/latest': [...SIGNED_IN_CODES],
  'GET /app/install/progress': [...SIGNED_IN_CODES, C.TASK_NOT_EXIST],
  'GET /app/install/results': [...SIGNED_IN_CODES, C.TASK_NOT_EXIST],
  'GET /app/installed': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /app/list': [...SIGNED_IN_CODES],
  'GET /configure/getCommonConfig': [],
  'GET /coupon/list': [...SIGNED_IN_CODES],
  'GET /coupon/usage': [...SIGNED_IN_CODES],
  'GET /customer/customerService/getUrl': [],
  'GET /customer/feedback/list': [...SIGNED_IN_CODES],
  'GET /device/cover': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /device/detail': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /device/empower/list': [...SIGNED_IN_CODES],
  'GET /device/empower/share': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'GET /device/list': [...SIGNED_IN_CODES],
  'GET /device/models': [...SIGNED_IN_CODES],
  'GET /device/summary': [...SIGNED_IN_CODES],
  'GET /device/systemUpdateProgress': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /device/transfer/list': [...SIGNED_IN_CODES],
  'GET /dict/getDeviceStatusList': [],
  'GET /dict/getDictList': [],
  'GET /group/list': [...SIGNED_IN_CODES],
  'GET /health': [],
  'GET /invite/list': [...SIGNED_IN_CODES],
  'GET /message/getSettings': [...SIGNED_IN_CODES],
  'GET /message/getUnreadCount': [...SIGNED_IN_CODES],
  'GET /message/list': [...SIGNED_IN_CODES],
  'GET /newUserGuide/getNewUserGuideConfig_V2': [...SIGNED_IN_CODES],
  'GET /newUserGuide/getNewUserReceiveEquipment': [
    ...SIGNED_IN_CODES,
    C.CLOUD_OUT_OF_STOCK,
    C.GOODS_NOT_EXIST,
    C.SHOW_ERROR_TIPS,
  ],
  'GET /order/getOrderInfo': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'GET /order/list': [...SIGNED_IN_CODES],
  'GET /pay/beanBalance': [...SIGNED_IN_CODES],
  'GET /playTrial/getConfig': [C.SHOW_ERROR_TIPS],
  'GET /sandbox/pay/checkout': [C.SHOW_ERROR_TIPS],
  'GET /sandbox/sms/last': [],
  'GET /sandbox/supplier/assets/{file}': [],
  'GET /sandbox/supplier/control': [C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /sandbox/supplier/control/floatingBall': [C.LOGIN_TOKEN_INVALID],
  'GET /sandbox/supplier/control/floatingBall.js': [],
  'GET /sandbox/supplier/control/state': [
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
  'GET /sandbox/supplier/control/stream': [
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
  'GET /sandbox/supplier/cover/{instanceId}': [],
  'GET /sandbox/supplier/stream/frame/{podId}': [],
  'GET /sandbox/wechat/oauth2/authorize': [C.SHOW_ERROR_TIPS],
  'GET /space/device': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED],
  'GET /space/history': [...SIGNED_IN_CODES],
  'GET /space/info': [...SIGNED_IN_CODES],
  'GET /space/packages': [...SIGNED_IN_CODES],
  'GET /space/task': [...SIGNED_IN_CODES, C.TASK_NOT_EXIST],
  'GET /user/flux': [...SIGNED_IN_CODES],
  'GET /user/getAuthToken': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'GET /user/getFloatingBall': [...SIGNED_IN_CODES],
  'GET /user/getUserInfo': [...SIGNED_IN_CODES],
  'GET /user/scanLogin/status': [
    C.ACCOUNT_HAS_BEEN_FROZEN,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
  'GET /wallet/accountBalance': [...SIGNED_IN_CODES],
  'GET /wallet/beanLedger': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'GET /wallet/rechargePackages': [...SIGNED_IN_CODES],
  'GET /wallet/timeToMonthQuote': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /CommodityGroup/getGoodPrice': [
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.GOODS_NOT_EXIST,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
  'POST /activation/activate': [
    ...SIGNED_IN_CODES,
    C.CLOUD_OUT_OF_STOCK,
    C.GOODS_NOT_EXIST,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /app/delete': [...SIGNED_IN_CODES, C.APP_DOES_NOT_EXIST],
  'POST /app/install': [...SIGNED_IN_CODES, C.APP_DOES_NOT_EXIST, C.SHOW_ERROR_TIPS],
  'POST /app/launch': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /app/upload': [...SIGNED_IN_CODES, C.FILE_EMPTY, C.ILLEGAL_FILE, C.SHOW_ERROR_TIPS],
  'POST /common/userLogin/confirm': [
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
    C.PHONE_VERIFICATION_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
  ],
  'POST /coupon/applicable': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.GOODS_NOT_EXIST,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /customer/feedback': [...SIGNED_IN_CODES],
  'POST /device/autoRenew': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/batchCommand': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/changeZone': [
    ...SIGNED_IN_CODES,
    C.CLOUD_OUT_OF_STOCK,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /device/command': [
    ...SIGNED_IN_CODES,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.APP_DOES_NOT_EXIST,
  ],
  'POST /device/empower': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /device/empower/acceptShare': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /device/empower/revoke': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /device/empower/share': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /device/rename': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/replace': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/setModel': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/systemUpdate': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /device/transfer': [
    ...SIGNED_IN_CODES,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
    C.SHOW_ERROR_TIPS,
    C.CAN_NOT_DO_TRANSFER,
    C.MUST_SET_PASSWORD,
  ],
  'POST /file/upload': [...SIGNED_IN_CODES, C.FILE_EMPTY, C.SHOW_ERROR_TIPS, C.ILLEGAL_FILE],
  'POST /group/create': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /group/delete': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /group/moveDevices': [...SIGNED_IN_CODES, C.GET_DEVICE_FAILED, C.SHOW_ERROR_TIPS],
  'POST /group/rename': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /group/sort': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /message/read': [...SIGNED_IN_CODES],
  'POST /message/updateSettings': [...SIGNED_IN_CODES],
  'POST /order/agentBalanceRecharge': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/cancel': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /order/createBigUserLinkOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createCloudOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createCloudOrderNew': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createRechargeOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createRenewOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createSeckillActivityOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createTimeToMonthOrder': [
    ...SIGNED_IN_CODES,
    C.CLOUD_BEANS_INSUFFICIENT,
    C.ORDER_PRICE_INCONSISTENT,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createUpOrDownOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/createVideoOrder': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /order/purchaseActivationCode': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.PRICE_INCONSISTENT,
    C.CLOUD_OUT_OF_STOCK,
    C.ORDER_AMOUNT_ZERO,
    C.GOODS_NOT_EXIST,
    C.ORDER_PRICE_INCONSISTENT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /pay/createPayment': [
    ...SIGNED_IN_CODES,
    C.WECHAT_ACCOUNT_EMPTY,
    C.CLOUD_BEANS_INSUFFICIENT,
    C.INSUFFICIENT_ACCOUNT_BALANCE,
    C.SHOW_ERROR_TIPS,
  ],
  // each payment provider's callbacks (sandbox, alipay, wechatpay): refusals are HTTP 4xx, not codes
  'POST /pay/notify/{provider}': [],
  'POST /pay/notify/{provider}/refund': [],
  'POST /sandbox/pay/act': [C.SHOW_ERROR_TIPS],
  'POST /sandbox/supplier/control/command': [
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.APP_DOES_NOT_EXIST,
    C.LOGIN_TOKEN_INVALID,
  ],
  'POST /sandbox/supplier/control/key': [
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
  'POST /sandbox/supplier/stream/start': [],
  'POST /sms/sendSmsCode': [
    C.PHONE_VERIFICATION_FAILED,
    C.SMS_SEND_FAILED,
    C.SMS_TYPE_FAILED,
    C.SMS_NEED_NOT_RESEND,
    C.SMS_DAILY_QUOTA_USED,
    C.LOGIN_TOKEN_INVALID,
  ],
  'POST /space/backup': [
    ...SIGNED_IN_CODES,
    C.OVER_CLOUD_SPACE,
    C.GET_DEVICE_FAILED,
    C.BACKUP_FAILURE_EXISTS,
    C.BACKUP_IN_PROGRESS,
    C.RECOVERING,
    C.IN_BACKUP_OR_RECOVERY,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /space/deleteBackup': [
    ...SIGNED_IN_CODES,
    C.TASK_NOT_EXIST,
    C.BACKUP_IN_PROGRESS,
    C.IN_BACKUP_OR_RECOVERY,
    C.DELETE_ERROR,
  ],
  'POST /space/restore': [
    ...SIGNED_IN_CODES,
    C.TASK_NOT_EXIST,
    C.GET_DEVICE_FAILED,
    C.DEVICE_NOT_SHUT_DOWN,
    C.BACKUP_IN_PROGRESS,
    C.RECOVERING,
    C.IN_BACKUP_OR_RECOVERY,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/changeBindingMobile': [
    ...SIGNED_IN_CODES,
    C.USER_REGISTERED,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
    C.PHONE_VERIFICATION_FAILED,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/checkOldMobile': [
    ...SIGNED_IN_CODES,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
  ],
  'POST /user/exitLogin': [...SIGNED_IN_CODES],
  'POST /user/firstUpdateUserPassword': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/login': [
    C.PASSWORD_OR_PHONE_EMPTY,
    C.PHONE_VERIFICATION_FAILED,
    C.PASSWORD_VERIFICATION_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
  ],
  'POST /user/logoutUser': [
    ...SIGNED_IN_CODES,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
  ],
  'POST /user/realNameAuth': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/saveFloatingBall': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/scanLogin/confirm': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/scanLogin/create': [],
  'POST /user/scanLogin/refuse': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/scanLogin/scan': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS],
  'POST /user/updateCompanyInfo': [
    ...SIGNED_IN_CODES,
    C.GOODS_QUANTITY_OVER_LIMIT,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/updateUserInfo': [...SIGNED_IN_CODES, C.SHOW_ERROR_TIPS, C.ILLEGAL_FILE],
  'POST /user/updateUserPassword': [
    ...SIGNED_IN_CODES,
    C.OLD_PASSWORD_WRONG,
    C.SHOW_ERROR_TIPS,
    C.MUST_SET_PASSWORD,
  ],
  'POST /user/wxAppletsLogin': [
    C.ONE_KEY_LOGIN_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/wxAppletsLoginPro': [
    C.WECHAT_ACCOUNT_EMPTY,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
    C.ONE_KEY_LOGIN_FAILED,
    C.PHONE_VERIFICATION_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/wxOfficialAccountLogin': [
    C.ONE_KEY_LOGIN_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /user/wxOfficialAccountLoginPro': [
    C.WECHAT_ACCOUNT_EMPTY,
    C.VERIFICATION_CODE_EMPTY,
    C.VERIFICATION_CODE_WRONG,
    C.ONE_KEY_LOGIN_FAILED,
    C.PHONE_VERIFICATION_FAILED,
    C.ACCOUNT_HAS_BEEN_FROZEN,
    C.SHOW_ERROR_TIPS,
  ],
  'POST /userUsageLog/saveUserUsageLog': [],
}

/**
 * Routes a real supplier registers only while it runs (SUPPLIER_PROVIDER=acep), so not in the default
 * app's OpenAPI document that route-codes.test.ts compares ROUTE_CODES with; their control page's calls
 * answer what the sandbox's do (routes/supplier-control-routes.ts).
 */
export const SUPPLIER_ROUTE_CODES: Readonly<Record<string, readonly number[]>> = {
  'GET /supplier/acep/assets/{file}': [],
  'GET /supplier/acep/control': ROUTE_CODES['GET /sandbox/supplier/control'],
  'GET /supplier/acep/control/state': ROUTE_CODES['GET /sandbox/supplier/control/state'],
  'POST /supplier/acep/control/command': ROUTE_CODES['POST /sandbox/supplier/control/command'],
  'POST /supplier/acep/control/key': ROUTE_CODES['POST /sandbox/supplier/control/key'],
  'GET /supplier/acep/control/stream': [
    C.GET_DEVICE_FAILED,
    C.SHOW_ERROR_TIPS,
    C.LOGIN_TOKEN_INVALID,
  ],
}

export const declaredCodes = (key: string): readonly number[] | undefined =>
  ROUTE_CODES[key] ?? SUPPLIER_ROUTE_CODES[key]

/** The OpenAPI document with each operation's declared codes as `x-result-codes` (app.ts). */
export function withResultCodes<T extends { paths?: object }>(document: T, prefix: string): T {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith(prefix)) continue
    for (const [method, operation] of Object.entries(operations ?? {})) {
      const codes = declaredCodes(routeKey(method, path.slice(prefix.length)))
      if (codes) operation['x-result-codes'] = [C.RESULT_OK, ...codes]
    }
  }
  return document
}
