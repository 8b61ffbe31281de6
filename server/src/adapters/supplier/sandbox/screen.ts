import { chinaClock, chinaDateTime } from '../../../domain/china-time'
import { escapeHtml } from '../../../domain/html'
import type { SandboxSnapshot } from './sandbox-supplier'

/** Names the sandbox screen shows for its preinstalled apps; others show their package name. */
const APP_NAMES: Record<string, string> = {
  'com.tencent.mm': '微信',
  'com.ss.android.ugc.aweme': '抖音',
  'com.taobao.taobao': '淘宝',
  'com.eg.android.AlipayGphone': '支付宝',
  'com.xingin.xhs': '小红书',
  'com.sina.weibo': '微博',
}

const W = 360
const H = 640
/** How long the screen shows the page opened by OpenUrl. */
const BROWSER_SHOWN_MS = 5 * 60_000

function overlay(title: string, detail: string, progress: number | null): string {
  const bar =
    progress == null
      ? ''
      : `<rect x="60" y="360" width="240" height="8" rx="4" fill="#ffffff33"/>
<rect x="60" y="360" width="${(240 * progress) / 100}" height="8" rx="4" fill="#fff"/>
<text x="180" y="396" font-size="16" fill="#fff" text-anchor="middle">${progress}%</text>`
  return `<rect width="${W}" height="${H}" fill="#000000b3"/>
<text x="180" y="300" font-size="24" fill="#fff" text-anchor="middle">${escapeHtml(title)}</text>
<text x="180" y="334" font-size="14" fill="#ffffffcc" text-anchor="middle">${escapeHtml(detail)}</text>${bar}`
}

function homeScreen(instance: SandboxSnapshot, now: number): string {
  const [date, time] = chinaDateTime(now).split(' ')
  const seconds = String(Math.floor(now / 1000) % 60).padStart(2, '0')
  const icons = instance.apps
    .slice(0, 12)
    .map((app, i) => {
      const x = 30 + (i % 4) * 78
      const y = 330 + Math.floor(i / 4) * 92
      const hue = (instance.hue + 40 * (i + 1)) % 360
      const label = APP_NAMES[app] ?? app.split('.').pop() ?? app
      return `<rect x="${x}" y="${y}" width="56" height="56" rx="14" fill="hsl(${hue},65%,55%)"/>
<text x="${x + 28}" y="${y + 36}" font-size="22" fill="#fff" text-anchor="middle">${escapeHtml([...label][0] ?? '?')}</text>
<text x="${x + 28}" y="${y + 76}" font-size="12" fill="#fff" text-anchor="middle">${escapeHtml(label.slice(0, 6))}</text>`
    })
    .join('\n')
  const browsing =
    instance.lastCommand?.startsWith('OpenUrl ') &&
    instance.lastCommandAt &&
    now - instance.lastCommandAt.getTime() < BROWSER_SHOWN_MS
      ? `<rect x="20" y="250" width="320" height="60" rx="10" fill="#ffffffe6"/>
<text x="36" y="276" font-size="13" fill="#333">正在访问</text>
<text x="36" y="296" font-size="12" fill="#0e5fd8">${escapeHtml(instance.lastCommand.slice(8, 50))}</text>`
      : ''
  return `<text x="180" y="170" font-size="64" fill="#fff" text-anchor="middle" font-weight="300">${time}</text>
<text x="180" y="204" font-size="16" fill="#ffffffdd" text-anchor="middle">${date} · ${seconds}秒</text>
${browsing}
${icons}`
}

/**
 * The instance's screen as an SVG phone screenshot: status bar with the time (China), the phone's
 * name, its own colour, and what it is doing (starting, rebooting, migrating, updating).
 */
export function renderScreen(instance: SandboxSnapshot, now: number): string {
  const hue = instance.hue
  let content: string
  if (instance.status === 'creating')
    content = overlay('正在开机…', '首次启动需要几秒钟', instance.progress)
  else if (instance.status === 'rebooting')
    content = overlay('正在重启…', '请稍候', instance.progress)
  else if (instance.status === 'failed')
    content = overlay('启动失败', instance.failReason ?? '', null)
  else if (instance.status === 'released') content = overlay('云手机已释放', '', null)
  else if (instance.status === 'suspended')
    content = overlay('云手机已关机', '到期已停止运行', null)
  else if (instance.op === 'systemUpdate')
    content = homeScreen(instance, now) + overlay('系统更新中', '请勿操作', instance.progress)
  else if (instance.op === 'changeZone')
    content = homeScreen(instance, now) + overlay('正在迁移数据…', '更换地区中', instance.progress)
  else content = homeScreen(instance, now)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="PingFang SC, Microsoft YaHei, Noto Sans CJK SC, sans-serif">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="hsl(${hue},70%,50%)"/><stop offset="1" stop-color="hsl(${(hue + 50) % 360},70%,28%)"/>
</linearGradient></defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
<text x="16" y="24" font-size="14" fill="#fff">${chinaClock(now)}</text>
<text x="${W - 16}" y="24" font-size="12" fill="#fff" text-anchor="end">5G ▮▮▮▮ 100%</text>
<text x="180" y="70" font-size="15" fill="#ffffffee" text-anchor="middle">${escapeHtml(instance.name)}</text>
${content}
<text x="180" y="${H - 20}" font-size="11" fill="#ffffffaa" text-anchor="middle">${escapeHtml(instance.modelName)} · Android 10 · ${escapeHtml(instance.imageVersion)}</text>
</svg>`
}
