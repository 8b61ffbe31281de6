/**
 * The control page's connection (control/src/connection.ts, sdk.ts, data.ts): the reconnect back-off
 * and its text, the idle warning, end and one-tap resume, the indicator, the WebRTC check, the page's
 * data element and the per-user 画质.
 */
import { Backoff, IdleTimer, reconnectText, statsText } from '../../control/src/connection'
import { readPageData, savedQuality, saveQuality } from '../../control/src/data'
import { canStream, type VePhoneConstructor } from '../../control/src/sdk'

test('reconnects wait 1, 2, 4, 8, 16 s, then give up; a stream that plays again starts over', () => {
  const backoff = new Backoff()
  const steps = Array.from({ length: 6 }, () => backoff.next())
  expect(steps.map((s) => s?.delayMs ?? null)).toEqual([1000, 2000, 4000, 8000, 16000, null])
  expect(steps[1]).toEqual({ delayMs: 2000, attempt: 2, of: 5 })
  backoff.reset()
  expect(backoff.next()).toEqual({ delayMs: 1000, attempt: 1, of: 5 })
  expect(reconnectText(4000, 3, 5)).toBe('连接已断开，4 秒后重连（第 3/5 次）')
})

test('idle: a warning, then the end; a touch while warned resumes, after the end only resume() does', () => {
  jest.useFakeTimers()
  try {
    const seen: string[] = []
    const idle = new IdleTimer(
      { warnMs: 2000, endMs: 3000 },
      {
        warn: () => seen.push('warn'),
        end: () => seen.push('end'),
        active: () => seen.push('active'),
      },
    )
    idle.start()
    jest.advanceTimersByTime(1999)
    expect(seen).toEqual([])
    idle.touch()
    jest.advanceTimersByTime(1999)
    expect(seen).toEqual([])
    jest.advanceTimersByTime(1)
    expect([seen, idle.phase]).toEqual([['warn'], 'warned'])
    idle.touch()
    expect([seen, idle.phase]).toEqual([['warn', 'active'], 'active'])
    jest.advanceTimersByTime(3000)
    expect([seen, idle.phase]).toEqual([['warn', 'active', 'warn', 'end'], 'ended'])
    idle.touch()
    jest.advanceTimersByTime(5000)
    expect(seen).toHaveLength(4)
    idle.resume()
    expect([seen.at(-1), idle.phase]).toEqual(['active', 'active'])
    jest.advanceTimersByTime(2000)
    expect(seen.at(-1)).toBe('warn')
    idle.stop()
    jest.advanceTimersByTime(5000)
    expect(seen.at(-1)).toBe('warn')
  } finally {
    jest.useRealTimers()
  }
})

test('the indicator shows the round trip and frame rate with a level', () => {
  expect(statsText({ rtt: 41.6, receivedVideoFps: 29.7 })).toEqual({
    text: '42 ms · 30 fps',
    level: 'good',
  })
  expect(statsText({ rtt: 150, receivedVideoFps: 20 }).level).toBe('fair')
  expect(statsText({ rtt: 400, receivedVideoFps: 30 }).level).toBe('poor')
  expect(statsText({ rtt: 20, receivedVideoFps: 5 }).level).toBe('poor')
})

test('without WebRTC, or when the SDK says no, the page cannot stream', () => {
  const win = window as unknown as { RTCPeerConnection?: unknown }
  delete win.RTCPeerConnection
  expect(canStream(undefined)).toBe(false)
  win.RTCPeerConnection = function RTCPeerConnection() {}
  try {
    expect(canStream(undefined)).toBe(true)
    const no = Object.assign(function Sdk() {}, {
      isRtcSupported: () => false,
    }) as unknown as VePhoneConstructor
    const yes = Object.assign(function Sdk() {}, {
      isSupported: () => true,
    }) as unknown as VePhoneConstructor
    expect(canStream(no)).toBe(false)
    expect(canStream(yes)).toBe(true)
  } finally {
    delete win.RTCPeerConnection
  }
})

test('the page reads its data element; 画质 is remembered per user and a strange value is 自动', () => {
  document.body.innerHTML =
    '<script type="application/json" id="control-data">{"session":"s","userId":7}</script>'
  expect(readPageData()).toEqual({ session: 's', userId: 7 })
  document.body.innerHTML = '<script type="application/json" id="control-data">{oops</script>'
  expect(readPageData()).toBeNull()
  document.body.innerHTML = ''
  expect(readPageData()).toBeNull()

  localStorage.clear()
  expect(savedQuality(7)).toBe('auto')
  saveQuality(7, 'smooth')
  expect(savedQuality(7)).toBe('smooth')
  expect(savedQuality(8)).toBe('auto')
  localStorage.setItem('cp.control.quality.u8', 'ultra')
  expect(savedQuality(8)).toBe('auto')
})
