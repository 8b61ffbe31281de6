import {
  LOGIN_EXPIRED_MESSAGE,
  RESOLVED_CODES,
  ResultCode,
  resultMessages,
  WHOLE_BODY_CODES,
} from '@/domain/result-codes'

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
