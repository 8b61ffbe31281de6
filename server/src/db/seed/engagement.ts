import type { Db } from '../client'
import { gameTrials, newUserGuideSteps, trialOffers } from '../schema'

/** 畅享版 (seed-catalogue), the goods the free trial phone uses. */
const TRIAL_GOOD_ID = 101

/** `image` names a bundled illustration of the client (src/components/NewUserGuide). */
export const GUIDE_STEPS = [
  {
    id: 1,
    sort: 1,
    title: '欢迎使用云手机',
    text: '云手机是运行在云端的安卓手机，7×24 小时在线，关掉App也不会停止运行。',
    image: 'guide-welcome',
  },
  {
    id: 2,
    sort: 2,
    title: '随时随地控制',
    text: '在「我的云机」点开云手机即可远程操作，支持重启、清理内存、一键新机等功能。',
    image: 'guide-control',
  },
  {
    id: 3,
    sort: 3,
    title: '免费试用一台',
    text: '新用户可免费领取一台试用云机，领取后几分钟即可使用，每个账号限领一次。',
    image: 'guide-trial',
  },
]

export const TRIAL_OFFER = {
  id: 1,
  enabled: true,
  goodId: TRIAL_GOOD_ID,
  minutes: 120,
  zonePolicy: 'mostStock',
}

export const GAME_TRIAL = {
  id: 1,
  gameName: '星海远征',
  description:
    '大型太空策略手游。用云手机挂机不耗电、不发热，关掉手机游戏也在云端继续运行，资源自动收集。',
  highlights: ['24小时云端挂机', '不占手机内存', '多开账号互不干扰'],
  packageName: 'com.xinghai.expedition',
  packageSize: 1_932_735_283,
  version: '3.6.2',
  downloadUrl: 'https://download.xinghai-game.cn/apk/xinghai-3.6.2.apk',
}

/** Idempotent: inserts the engagement defaults once and never overwrites an operator's changes. */
export async function seedEngagement(db: Db): Promise<void> {
  await db.insert(newUserGuideSteps).values(GUIDE_STEPS).onConflictDoNothing()
  await db.insert(trialOffers).values(TRIAL_OFFER).onConflictDoNothing()
  await db.insert(gameTrials).values(GAME_TRIAL).onConflictDoNothing()
}
