import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Cell } from '@nutui/nutui-react-taro'
import { listDevices, sendCommand } from '@/api/device'
import { navigate } from '@/runtime/navigation'
import { confirm, toast, toastSuccess } from '@/runtime/feedback'
import EmptyState from '@/components/EmptyState'
import { DeviceStatus } from '@/domain/device-lifecycle'
import { formatBytes } from '@/domain/formatters'
import type { Device } from '@/types/api'
import { useLandingAction, usePlayTrialConfig, useShareLanding } from '../parts/use-play-trial'
import CopyLinkButton from '../parts/CopyLinkButton'
import styles from './landing.module.scss'

/** The action sheet lists at most 6 entries. */
const SHEET_MAX = 6

/** Which running phone gets the download: the only one, or the one picked from a sheet. */
async function pickPhone(phones: Device[]): Promise<Device | null> {
  if (phones.length === 1) return phones[0]
  const shown = phones.slice(0, SHEET_MAX)
  try {
    const { tapIndex } = await Taro.showActionSheet({ itemList: shown.map((p) => p.name) })
    return shown[tapIndex] ?? null
  } catch {
    return null // cancelled
  }
}

/** Game download landing page (public): the package, and 在云手机中下载 on one of my running phones. */
function PlayTrialDownload() {
  const { config, failed } = usePlayTrialConfig()
  const { busy, run } = useLandingAction('playTrialDownload')
  useShareLanding('playTrialDownload', config)

  if (!config) {
    return failed ? <EmptyState title="下载页暂时无法打开" description="请稍后再试" /> : null
  }

  const download = () =>
    run(async () => {
      const running = await listDevices({ status: DeviceStatus.running }, 1, 20)
      const idle = running.records.filter((d) => !d.busy)
      if (idle.length === 0) {
        const goTrial = await confirm(
          '没有运行中的云手机',
          '游戏需要安装在运行中的云手机里。新用户可以免费领取一台试玩云机。',
          '去领取',
        )
        if (goTrial) await navigate('playTrial')
        return
      }
      const phone = await pickPhone(idle)
      if (!phone) return
      const result = await sendCommand({
        deviceId: phone.deviceId,
        command: 'OpenUrl',
        url: config.downloadUrl,
      })
      if (result.ok) toastSuccess(`已在${phone.name}中开始下载`)
      else toast(result.msg || '下载失败，请稍后重试')
    })

  return (
    <View className={styles.page}>
      <View className={styles.hero}>
        <Text className={styles.game}>{config.gameName}</Text>
        <Text className={styles.slogan}>下载到云手机，不占手机内存</Text>
      </View>
      <Cell.Group>
        <Cell title="包名" extra={config.packageName} />
        <Cell title="大小" extra={formatBytes(config.packageSize)} />
        <Cell title="版本" extra={`v${config.version}`} />
      </Cell.Group>
      <View className={styles.actions}>
        <Button type="primary" block loading={busy} onClick={download}>
          在云手机中下载
        </Button>
        <Button block fill="outline" onClick={() => navigate('playTrial')}>
          免费领取试玩云机
        </Button>
        <CopyLinkButton route="playTrialDownload" />
      </View>
    </View>
  )
}

export default observer(PlayTrialDownload)
