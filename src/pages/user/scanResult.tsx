import { useState, type ReactNode } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { ScanLoginRequest, SharePreview } from '@/types/api'
import { errorMessage, toastError, toastSuccess } from '@/runtime/feedback'
import { formatDateTime } from '@/domain/formatters'
import { GRANT_PERMISSION_LABELS, type GrantPermissionValue } from '@/domain/grants'
import { parseScanCode } from '@/domain/scan-codes'
import { acceptShare, previewShare } from '@/api/grant'
import { navigate, redirect } from '@/runtime/navigation'
import { scanLoginConfirm, scanLoginRefuse, scanLoginScan } from '@/api/scan-login'
import styles from './scanResult.module.scss'

type Outcome = 'confirmed' | 'refused' | 'accepted' | null

const decoded = (text: string | undefined) => {
  try {
    return decodeURIComponent(text ?? '')
  } catch {
    return text ?? ''
  }
}

/** A QR that leads nowhere: why, and 重新扫描. */
function Unreadable({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.title}>{title}</Text>
        {children}
      </View>
      <Button block onClick={() => redirect('scan')}>
        重新扫描
      </Button>
    </View>
  )
}

/** What a scanned QR is: a login to confirm, a share to accept, an activation code, or unknown. */
export default function ScanResult() {
  const { params } = useRouter()
  const text = decoded(params.text)
  const scanned = parseScanCode(text)
  const [login, setLogin] = useState<ScanLoginRequest | null>(null)
  const [share, setShare] = useState<SharePreview | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)

  useLoad(() => {
    if (scanned.kind === 'activate') void redirect('activateDevice', { code: scanned.code })
    if (scanned.kind === 'login') {
      scanLoginScan(scanned.code).then(setLogin, (error: unknown) =>
        setProblem(errorMessage(error)),
      )
    }
    if (scanned.kind === 'share') {
      previewShare(scanned.code).then(setShare, (error: unknown) => setProblem(errorMessage(error)))
    }
  })

  const act = async (run: () => Promise<unknown>, done: Outcome, message: string) => {
    setBusy(true)
    try {
      await run()
      setOutcome(done)
      toastSuccess(message)
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }

  if (scanned.kind === 'unknown') {
    return (
      <Unreadable title="无法识别该二维码">
        <Text className={styles.hint}>二维码内容：</Text>
        <Text className={styles.raw} userSelect>
          {text || '（空）'}
        </Text>
      </Unreadable>
    )
  }

  if (scanned.kind === 'activate') {
    return (
      <View className={styles.page}>
        <Text className={styles.hint}>正在前往激活码页面…</Text>
      </View>
    )
  }

  if (problem) return <Unreadable title={problem} />

  if (scanned.kind === 'login') {
    return (
      <View className={styles.page}>
        <View className={styles.card}>
          <Text className={styles.title}>登录确认</Text>
          {outcome === 'confirmed' && <Text className={styles.done}>已确认，电脑端已登录</Text>}
          {outcome === 'refused' && <Text className={styles.done}>已拒绝本次登录</Text>}
          {!outcome && login && (
            <>
              <Text className={styles.question}>确认在 {login.requester} 上登录？</Text>
              <Text className={styles.hint}>
                IP {login.ip} · 二维码 {formatDateTime(login.expiresAt).slice(11, 16)} 前有效
              </Text>
              <Text className={styles.hint}>如果不是您本人操作，请点击拒绝</Text>
            </>
          )}
          {!outcome && !login && <Text className={styles.hint}>正在读取登录请求…</Text>}
        </View>
        {!outcome && login && (
          <View className={styles.actions}>
            <Button
              type="primary"
              block
              loading={busy}
              onClick={() => act(() => scanLoginConfirm(scanned.code), 'confirmed', '已确认登录')}
            >
              确认登录
            </Button>
            <Button
              block
              disabled={busy}
              onClick={() => act(() => scanLoginRefuse(scanned.code), 'refused', '已拒绝')}
            >
              拒绝
            </Button>
          </View>
        )}
      </View>
    )
  }

  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.title}>云手机授权</Text>
        {share ? (
          <>
            <Text className={styles.question}>
              {share.ownerMobile} 将 {share.deviceCount} 台云手机授权给您
            </Text>
            <Text className={styles.hint}>
              权限：{GRANT_PERMISSION_LABELS[share.permission as GrantPermissionValue]} · 授权{' '}
              {share.days} 天
            </Text>
            <Text className={styles.hint}>
              二维码 {formatDateTime(share.expiresAt).slice(0, 16)} 前有效
            </Text>
          </>
        ) : (
          <Text className={styles.hint}>正在读取授权信息…</Text>
        )}
        {outcome === 'accepted' && <Text className={styles.done}>已接受授权</Text>}
      </View>
      {share && outcome !== 'accepted' && (
        <Button
          type="primary"
          block
          loading={busy}
          onClick={() => act(() => acceptShare(scanned.code), 'accepted', '已接受授权')}
        >
          接受授权
        </Button>
      )}
      {outcome === 'accepted' && (
        <Button block onClick={() => navigate('home')}>
          查看云手机
        </Button>
      )}
    </View>
  )
}
