import { useEffect, useRef, useState } from 'react'
import { View, Text, type ITouchEvent } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { Device } from '@/types/api'
import { DeviceStatus, expiryBanner } from '@/domain/device-lifecycle'
import { actionInput, deviceActions, type DeviceAction } from '@/domain/device-permissions'
import { useStores } from '@/stores'
import ActionButtons from './ActionButtons'
import CoverImage from './CoverImage'
import PhoneInfo from './PhoneInfo'
import { availableActions } from './action-routes'
import type { CoverQueue } from './cover-queue'
import { coverPlaceholder } from '@/domain/device-view'
import { stepIndex, swipeDirection } from './swipe'
import styles from './fleet.module.scss'

/**
 * One phone large; swipe sideways (or the arrows) for the next. One card rather than a Swiper of
 * every phone: a 1,000-phone fleet would otherwise put 1,000 slides in the page.
 */
function SingleView({
  covers,
  now,
  onAction,
}: {
  covers: CoverQueue
  now: number
  onAction: (action: DeviceAction, device: Device) => void
}) {
  const { fleet, session } = useStores()
  const [index, setIndex] = useState(0)
  const start = useRef<{ x: number; y: number } | null>(null)
  const count = fleet.devices.length
  const current = index < count ? index : Math.max(0, count - 1)
  const device: Device | undefined = fleet.devices[current]

  const go = (direction: 'next' | 'prev') => {
    const next = stepIndex(current, direction, count)
    setIndex(next)
    if (next >= count - 2) void fleet.loadMore()
  }

  const deviceId = device?.deviceId
  const running = device?.status === DeviceStatus.running
  useEffect(() => {
    covers.setVisible(deviceId !== undefined && running ? [deviceId] : [])
  }, [covers, deviceId, running])

  if (!device) return null
  const banner = expiryBanner(device, now, session.renewMsg)
  const actions = availableActions(deviceActions(actionInput(device)))

  return (
    <View
      className={styles.single}
      onTouchStart={(e) => {
        const t = (e as unknown as ITouchEvent).touches[0]
        start.current = { x: t.clientX, y: t.clientY }
      }}
      onTouchEnd={(e) => {
        const t = (e as unknown as ITouchEvent).changedTouches[0]
        if (!start.current || !t) return
        const direction = swipeDirection(t.clientX - start.current.x, t.clientY - start.current.y)
        start.current = null
        if (direction) go(direction)
      }}
    >
      <View className={styles.pager}>
        <View className={styles.arrow} role="button" aria-label="上一台" onClick={() => go('prev')}>
          ‹
        </View>
        <Text className={styles.pageText}>
          {current + 1} / {fleet.total || count}
        </Text>
        <View className={styles.arrow} role="button" aria-label="下一台" onClick={() => go('next')}>
          ›
        </View>
      </View>
      {banner && (
        <View
          className={banner.kind === 'expired' ? styles.bannerExpired : styles.bannerSoon}
          role="alert"
          onClick={() => actions.includes('renew') && onAction('renew', device)}
        >
          {banner.text}
        </View>
      )}
      <View className={styles.singleCover}>
        <CoverImage
          url={
            running
              ? (covers.frame(device.deviceId)?.url ?? device.coverUrl ?? undefined)
              : undefined
          }
          placeholder={coverPlaceholder(device.status)}
          label={`${device.name}的画面`}
        />
      </View>
      <PhoneInfo device={device} statusEntry={fleet.statusOf(device.status)} now={now} />
      <ActionButtons actions={actions} onAction={(action) => onAction(action, device)} />
    </View>
  )
}

export default observer(SingleView)
