import { useCallback, useEffect, useRef, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { ScanLoginSession, ScanLoginStatus } from '@/types/api'
import Picture from '@/components/Picture'
import { errorMessage, toastError } from '@/runtime/feedback'
import { createScanLogin, scanLoginStatus } from '@/api/scan-login'
import { useStores } from '@/stores'
import { finishLogin } from '@/runtime/finish-login'
import styles from '../login.module.scss'

export const SCAN_POLL_MS = 2000

const STATUS_TEXT: Record<ScanLoginStatus, string> = {
  pending: '请使用云手机小程序「我的 → 扫一扫」扫描二维码登录',
  scanned: '已扫码，请在手机上确认',
  confirmed: '已确认，正在登录…',
  consumed: '已确认，正在登录…',
  refused: '已拒绝登录，点击二维码刷新',
  expired: '二维码已过期，点击刷新',
}
const FINAL: ScanLoginStatus[] = ['refused', 'expired', 'consumed']

/** H5 扫码登录: shows a login QR, polls it every 2 s, logs in when the phone confirms. */
function ScanLogin({ redirect }: { redirect?: string }) {
  const { session } = useStores()
  const [qr, setQr] = useState<ScanLoginSession | null>(null)
  const [status, setStatus] = useState<ScanLoginStatus>('pending')
  const [problem, setProblem] = useState<string | null>(null)
  const polling = useRef(false)

  const refresh = useCallback(async () => {
    setProblem(null)
    try {
      const created = await createScanLogin()
      setQr(created)
      setStatus('pending')
    } catch (error) {
      setProblem(errorMessage(error, '二维码获取失败，点击重试'))
    }
  }, [])

  useEffect(() => {
    void refresh()
  }, [refresh])

  useEffect(() => {
    if (!qr || FINAL.includes(status)) return undefined
    const timer = setInterval(async () => {
      if (polling.current) return
      polling.current = true
      try {
        const state = await scanLoginStatus(qr.pollKey)
        if (state.login) {
          clearInterval(timer)
          setStatus('consumed')
          await session.loginWithResult(state.login)
          await finishLogin(state.login, redirect)
          return
        }
        setStatus(
          Date.now() >= qr.expiresAt && state.status === 'pending' ? 'expired' : state.status,
        )
      } catch (error) {
        clearInterval(timer)
        toastError(error)
        setStatus('expired')
      } finally {
        polling.current = false
      }
    }, SCAN_POLL_MS)
    return () => clearInterval(timer)
  }, [qr, status, session, redirect])

  const stale = status === 'expired' || status === 'refused' || problem !== null
  return (
    <View className={styles.scanLogin}>
      <View
        className={styles.qrBox}
        role={stale ? 'button' : undefined}
        aria-label={stale ? '刷新二维码' : undefined}
        onClick={stale ? refresh : undefined}
      >
        {qr && <Picture className={styles.qr} src={qr.qrImage} alt="扫码登录二维码" />}
        {stale && <View className={styles.qrMask}>{problem ?? '点击刷新'}</View>}
      </View>
      <Text className={styles.scanStatus}>{problem ?? STATUS_TEXT[status]}</Text>
    </View>
  )
}

export default observer(ScanLogin)
