/** Local-storage keys shared by the request layer and the stores (SPEC 3). */
export const STORAGE_KEYS = {
  token: 'accessToken',
  userId: 'userId',
  channel: 'channel',
  accountList: 'accountList',
  modifyPassword: 'needModifyPassword',
  policyTabIndex: 'policyTabIndex',
  homeGroupId: 'homeGroupId',
} as const
