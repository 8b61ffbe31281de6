/**
 * The control page both suppliers serve (docs/control-page.md): the built front-end of control/
 * (`npm run build:control` → dist/control), its session and settings written in as data — one JSON
 * element — never as code. Read from disk once per process; a missing build is said, not hidden.
 */
import fs from 'node:fs'
import path from 'node:path'
import { CONTROL_TEXT, type ControlPageData } from '#domain/control-page'
import { escapeHtml } from '../../domain/html'

const DATA_MARK = '<!--control-data-->'

export interface ControlBuild {
  /** index.html with the data mark. */
  html: string
  /** assets/<file> → its bytes and type. */
  assets: Map<string, { bytes: Buffer; type: string }>
  /** The sandbox's SDK stand-in, as assets/<file>. */
  sandboxSdk: string | null
}

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

/** The build in `dir`, or null when it has not been built (`npm run build:control`). */
export function loadControlBuild(dir: string): ControlBuild | null {
  const index = path.join(dir, 'index.html')
  if (!fs.existsSync(index)) return null
  const html = fs.readFileSync(index, 'utf8')
  if (!html.includes(DATA_MARK))
    throw new Error(`${index}: no ${DATA_MARK} (not the control page?)`)
  const assets = new Map<string, { bytes: Buffer; type: string }>()
  const assetDir = path.join(dir, 'assets')
  for (const name of fs.existsSync(assetDir) ? fs.readdirSync(assetDir) : []) {
    const type = TYPES[path.extname(name)]
    if (type) assets.set(name, { bytes: fs.readFileSync(path.join(assetDir, name)), type })
  }
  const manifestFile = path.join(dir, '.vite', 'manifest.json')
  let sandboxSdk: string | null = null
  if (fs.existsSync(manifestFile)) {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<
      string,
      { file: string; name?: string }
    >
    const entry = Object.values(manifest).find((m) => m.name === 'sandbox-sdk')
    sandboxSdk = entry ? path.basename(entry.file) : null
  }
  return { html, assets, sandboxSdk }
}

/** The page for one session: the build's document with the data element in place of its mark. */
export function renderControlPage(build: ControlBuild, data: ControlPageData): string {
  // JSON inside <script>: "<" written as \u003c so no text can close the element
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  return build.html
    .replace('<title>云手机</title>', `<title>${escapeHtml(data.deviceName)}</title>`)
    .replace(DATA_MARK, `<script type="application/json" id="control-data">${json}</script>`)
}

function shell(text: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>云手机</title><style>body{margin:0;background:#111;color:#ccc;font-family:-apple-system,"PingFang SC",sans-serif}p{text-align:center;margin-top:30vh;font-size:16px}</style></head><body><p role="alert">${escapeHtml(text)}</p></body></html>`
}

export const refusedPage = () => shell(CONTROL_TEXT.refused)
export const NOT_BUILT_TEXT = '控制页面暂不可用，请稍后再试'
export const notBuiltPage = () => shell(NOT_BUILT_TEXT)

/**
 * Idle: the page warns after CONTROL_IDLE_MS − 30 s without a touch and stops the stream at
 * CONTROL_IDLE_MS (default 5 minutes).
 */
export function controlIdle(env: NodeJS.ProcessEnv = process.env): ControlPageData['idle'] {
  const endMs = Number(env.CONTROL_IDLE_MS) > 0 ? Number(env.CONTROL_IDLE_MS) : 300_000
  return { warnMs: Math.max(0, endMs - Math.min(30_000, endMs / 2)), endMs }
}
