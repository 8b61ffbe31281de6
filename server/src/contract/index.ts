/** The API contract's static types, for the client to `import type` (nothing here enters a bundle). */
export type { ApiEnvelope, PageQuery, PagedData } from './common'
export type {
  SendSmsCodeBody,
  SendSmsCodeResult,
  SandboxLastSms,
  CodeLoginBody,
  PasswordLoginBody,
  LoginResult,
  WxAppletsLoginBody,
  WxOfficialAccountLoginBody,
  WxLoginResult,
  WxBindLoginBody,
} from './auth'
export type {
  WorkType,
  CompanyInfo,
  UserInfo,
  UpdateUserInfoBody,
  RealNameAuthBody,
  RealNameAuthResult,
  UpdateCompanyInfoBody,
  UpdatePasswordBody,
  FirstPasswordBody,
  SmsCodeBody,
  MobileTicket,
  ChangeBindingMobileBody,
  UploadResult,
} from './user'
export type {
  CommonConfig,
  DictQuery,
  DictEntry,
  DeviceStatusEntry,
  SaveUsageLogBody,
  CustomerServiceInfo,
  FeedbackBody,
  FeedbackTicket,
} from './config'
export type {
  Message,
  MessageListQuery,
  UnreadCount,
  ReadMessagesBody,
  MessageSettings,
  UpdateMessageSettingsBody,
} from './message'
export type {
  GoodsPrice,
  ZoneStock,
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  QuoteKind,
  QuoteBody,
  RenewalLine,
  Quote,
} from './catalog'
export type {
  OrderInfo,
  CreateCloudOrderBody,
  CreateBigUserLinkOrderBody,
  CreateRenewOrderBody,
  CreateUpOrDownOrderBody,
  CreateVideoOrderBody,
  PurchaseActivationCodeBody,
  OrderInfoQuery,
  OrderListQuery,
  CancelOrderBody,
} from './order'
export type {
  CreatePaymentBody,
  CreatePaymentResult,
  SandboxAction,
  SandboxActBody,
  SandboxNotification,
} from './payment'
export type { ActivateBody, ActivateResult, MyCode, MyCodesQuery } from './activation'
export type {
  Device,
  DeviceListQuery,
  DeviceIdQuery,
  DeviceSummary,
  RenameDeviceBody,
  DeviceCommandBody,
  BatchCommandBody,
  CommandResult,
  DeviceCover,
  ChangeZoneBody,
  SystemUpdateProgress,
  DeviceModel,
  SetModelBody,
  AuthTokenResult,
} from './device'
export type {
  DeviceGroup,
  GroupList,
  CreateGroupBody,
  RenameGroupBody,
  DeleteGroupBody,
  SortGroupsBody,
  MoveDevicesBody,
} from './group'
