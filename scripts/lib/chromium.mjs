/** How we start Debian's Chromium headless for e2e tests and benches (TOOLCHAIN: offline-safe flags). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium'
