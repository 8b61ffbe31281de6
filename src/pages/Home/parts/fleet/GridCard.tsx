import { View } from '@tarojs/components'
import type { Device, DeviceStatusEntry } from '@/types/api'
import { DeviceStatus } from '@/domain/device-lifecycle'
import CoverImage from './CoverImage'
import PhoneInfo from './PhoneInfo'
import { coverPlaceholder } from '@/domain/device-view'
import styles from './fleet.module.scss'

export interface GridCardProps {
  device: Device
  statusEntry: DeviceStatusEntry | undefined
  coverUrl: string | undefined
  now: number
  width: number
  height: number
  /** the dense mode's tile: no screenshot, the tick before the name */
  dense?: boolean
  selecting: boolean
  selected: boolean
  onTap: (device: Device) => void
}

/** One phone in the multi view: live screenshot (not in the dense mode), name, status, remaining time. */
export default function GridCard(props: GridCardProps) {
  const { device, statusEntry, coverUrl, now, width, height, dense, selecting, selected, onTap } =
    props
  const tick = selecting && (
    <View className={selected ? styles.tickOn : styles.tick} aria-hidden>
      {selected ? '✓' : ''}
    </View>
  )
  if (dense) {
    return (
      <View
        className={`${styles.denseTile} ${selected ? styles.gridCardSelected : ''}`}
        style={{ width: `${width}px`, height: `${height}px` }}
        onClick={() => onTap(device)}
        role="button"
        aria-label={device.name}
        aria-pressed={selecting ? selected : undefined}
      >
        {tick}
        <PhoneInfo device={device} statusEntry={statusEntry} now={now} compact />
      </View>
    )
  }
  return (
    <View
      className={`${styles.gridCard} ${selected ? styles.gridCardSelected : ''}`}
      style={{ width: `${width}px` }}
      onClick={() => onTap(device)}
      role="button"
      aria-label={device.name}
      aria-pressed={selecting ? selected : undefined}
    >
      <View className={styles.gridCover} style={{ height: `${Math.round((width * 16) / 9)}px` }}>
        <CoverImage
          url={
            device.status === DeviceStatus.running
              ? (coverUrl ?? device.coverUrl ?? undefined)
              : undefined
          }
          placeholder={coverPlaceholder(device.status)}
          label={`${device.name}的画面`}
        />
        {tick}
      </View>
      <PhoneInfo device={device} statusEntry={statusEntry} now={now} compact />
    </View>
  )
}
