import { APP_VERSION } from '#constants/limits'
import type { Db } from '../client'
import { commonConfig, deviceStatuses, dictionaries } from '../schema'
import { seedActivities } from './activity'
import { seedCatalogue } from './catalogue'
import { seedCoupons } from './coupon'
import { seedEngagement } from './engagement'

export const DEFAULT_COMMON_CONFIG: Record<string, string> = {
  renewalReminderMsg: '您的云手机已到期，系统将为您保留2小时，请及时续费，以免数据丢失',
  customerServicePhone: '400-820-8820',
  customerServiceHours: '每天 9:00-21:00',
  appVersion: APP_VERSION,
}

const INDUSTRIES: { id: number; name: string; worktypes: string[] }[] = [
  { id: 1, name: '互联网/电商', worktypes: ['电商运营', '客服', '社群运营', '推广投放'] },
  { id: 2, name: '游戏', worktypes: ['游戏工作室', '游戏代练', '游戏测试', '手游推广'] },
  { id: 3, name: '新媒体/直播', worktypes: ['主播', '短视频运营', '直播运营', '内容创作'] },
  { id: 4, name: '教育', worktypes: ['在线教师', '课程运营', '招生咨询'] },
  { id: 5, name: '金融', worktypes: ['理财顾问', '保险代理', '风控审核'] },
  { id: 6, name: '其他', worktypes: ['个人使用', '其他'] },
]

/** Industries keep ids 1–99; work type ids are industryId * 100 + position, stable across installs. */
export const DICTIONARY_ROWS = INDUSTRIES.flatMap((industry, i) => [
  {
    id: industry.id,
    dictType: 'industry',
    name: industry.name,
    value: String(industry.id),
    parentId: null,
    sort: i,
  },
  ...industry.worktypes.map((name, j) => ({
    id: industry.id * 100 + j + 1,
    dictType: 'worktype',
    name,
    value: String(industry.id * 100 + j + 1),
    parentId: industry.id,
    sort: j,
  })),
])

export const DEVICE_STATUS_ROWS = [
  { status: 0, name: '创建中', color: '#0E5FD8' },
  { status: 1, name: '运行中', color: '#007D59' },
  { status: 2, name: '已到期', color: '#B34D00' },
  { status: 3, name: '已释放', color: '#646a78' },
  { status: 4, name: '重启中', color: '#6A45F0' },
  { status: 5, name: '创建失败', color: '#CC1F2E' },
]

/** Idempotent: runs on every start and never overwrites values an operator changed. */
export async function seedDatabase(db: Db): Promise<void> {
  await db
    .insert(commonConfig)
    .values(Object.entries(DEFAULT_COMMON_CONFIG).map(([key, value]) => ({ key, value })))
    .onConflictDoNothing()
  await db.insert(dictionaries).values(DICTIONARY_ROWS).onConflictDoNothing()
  await db.insert(deviceStatuses).values(DEVICE_STATUS_ROWS).onConflictDoNothing()
  await seedCatalogue(db)
  await seedEngagement(db)
  await seedCoupons(db)
  await seedActivities(db)
}
