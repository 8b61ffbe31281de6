/**
 * The user API contract's static types, for the client to `import type` (nothing here enters a bundle).
 * The operator console's contract is its own (console/contract), outside this namespace.
 */
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
  AndroidVersion,
  DevicePermission,
  GoodsDetailQuery,
  ZonesQuery,
  QuoteLine,
  GoodsPrice,
  ZoneStock,
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  QuoteKind,
  QuoteBody,
  RenewalLine,
  Quote,
} from './goods'
export type {
  OrderKind,
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
  UserCoupon,
  CouponListQuery,
  CouponUsage,
  ApplicableCouponsBody,
  ApplicableCoupon,
  CouponGoodsInfo,
  ApplicableCoupons,
} from './coupon'
export type {
  CreatePaymentBody,
  CreatePaymentResult,
  BeanBalance,
  SandboxAction,
  SandboxActBody,
  SandboxActResult,
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
export type { AutoRenewState, SetAutoRenewBody, SetAutoRenewResult } from './auto-renew'
export type {
  DeviceGroup,
  GroupList,
  CreateGroupBody,
  RenameGroupBody,
  DeleteGroupBody,
  SortGroupsBody,
  MoveDevicesBody,
} from './group'
export type {
  GrantPermission,
  CreateGrantBody,
  CreateGrantResult,
  GrantDirection,
  GrantListQuery,
  GrantView,
  RevokeGrantsBody,
  CreateShareBody,
  ShareCode,
  SharePreview,
  AcceptShareResult,
} from './grant'
export type {
  TransferDevicesBody,
  TransferResult,
  TransferRefusal,
  TransferDirection,
  TransferListQuery,
  TransferRecord,
} from './transfer'
export type {
  GuideStep,
  TrialOffer,
  NewUserGuideConfig,
  TrialPhone,
  PlayTrialConfig,
  FloatingBallSettings,
  SaveFloatingBallBody,
  Invitee,
} from './engagement'
export type {
  RechargePackage,
  RechargePackages,
  CreateRechargeOrderBody,
  BeanLedgerEntry,
  BeanLedgerQuery,
  TimeToMonthQuote,
  CreateTimeToMonthOrderBody,
  TimeToMonthResult,
  AgentBalanceRechargeBody,
  AccountBalance,
} from './wallet'
export type {
  SpaceTaskKind,
  SpaceTaskStatus,
  SpaceTask,
  SpaceDeviceUsage,
  SpaceInfo,
  DeviceSpace,
  BackupBody,
  RestoreBody,
  DeleteBackupBody,
  SpaceHistoryQuery,
  SpaceGrant,
  SpacePackage,
  SpacePackages,
  CreateSpaceOrderBody,
} from './space'
export type { PaidOrder, UserFlux } from './flux'
export type {
  ActivityKind,
  ActivitySummary,
  SeckillItem,
  ActivityDetail,
  ActivityIdQuery,
  CreateSeckillOrderBody,
} from './activity'
export type {
  ScanLoginStatus,
  ScanLoginSession,
  ScanLoginStatusQuery,
  ScanLoginState,
  ScanLoginIdBody,
  ScanLoginRequest,
} from './scan-login'
export type {
  AppItem,
  AppList,
  DeleteAppBody,
  InstallAppBody,
  InstallProgress,
  InstallResult,
  InstalledApp,
  LaunchAppBody,
} from './app'
