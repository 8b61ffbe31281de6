import { useEffect, useMemo, useState } from 'react'
import Taro from '@tarojs/taro'
import { ScrollView, View } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { Device } from '@/types/api'
import { DeviceStatus } from '@/domain/device-lifecycle'
import { LIST_TEXTS } from '@/constants/limits'
import { useStores } from '@/stores'
import GridCard from './GridCard'
import type { CoverQueue } from './cover-queue'
import { denseMetrics, gridMetrics, nearEnd, onScreenItems, visibleRows } from './windowing'
import styles from './fleet.module.scss'

function viewport() {
  // in a browser the window says it directly (Taro's H5 getWindowInfo brings a UA parser along)
  const info =
    process.env.TARO_ENV === 'h5'
      ? { windowWidth: window.innerWidth, windowHeight: window.innerHeight }
      : Taro.getWindowInfo()
  return { width: info.windowWidth || 375, height: info.windowHeight || 667 }
}

/**
 * The grid of live screenshots, or in the dense mode of small tiles without them. Only rows near the
 * viewport are rendered (a spacer keeps the scroll height), and only phones on screen are handed to
 * the cover queue (none in the dense mode).
 */
function MultiView({
  covers,
  now,
  onTap,
}: {
  covers: CoverQueue
  now: number
  onTap: (device: Device) => void
}) {
  const { fleet } = useStores()
  const { width, height } = useMemo(viewport, [])
  const dense = fleet.dense
  const metrics = useMemo(() => (dense ? denseMetrics : gridMetrics)(width), [dense, width])
  const [scrollTop, setScrollTop] = useState(0)
  const devices = fleet.devices
  const rowCount = Math.ceil(devices.length / metrics.columns)
  const range = visibleRows(scrollTop, height, metrics.rowHeight, rowCount, 2)
  const rowsKey = (top: number) => {
    const rendered = visibleRows(top, height, metrics.rowHeight, rowCount, 2)
    const shown = visibleRows(top, height, metrics.rowHeight, rowCount, 0)
    return `${rendered.first}-${rendered.end}-${shown.first}-${shown.end}`
  }

  const onScreen = onScreenItems(devices, metrics.columns, scrollTop, height, metrics.rowHeight)
  const visibleKey = onScreen
    .filter((d) => !dense && d.status === DeviceStatus.running)
    .map((d) => d.deviceId)
    .join(',')
  useEffect(() => {
    covers.setVisible(visibleKey ? visibleKey.split(',').map(Number) : [])
  }, [covers, visibleKey])

  const wantMore = nearEnd(range, rowCount) && fleet.hasMore
  useEffect(() => {
    if (wantMore) void fleet.loadMore()
  }, [wantMore, fleet])

  const rows = []
  for (let row = range.first; row < range.end; row++) {
    const items = devices.slice(row * metrics.columns, (row + 1) * metrics.columns)
    rows.push(
      <View
        key={row}
        className={styles.gridRow}
        style={{
          top: `${row * metrics.rowHeight}px`,
          gap: `${metrics.gap}px`,
          padding: `0 ${metrics.gap}px`,
        }}
      >
        {items.map((device) => (
          <GridCard
            key={device.deviceId}
            device={device}
            statusEntry={fleet.statusOf(device.status)}
            coverUrl={covers.frame(device.deviceId)?.url}
            now={now}
            width={metrics.cardWidth}
            height={metrics.cardHeight}
            dense={dense}
            selecting={fleet.selecting}
            selected={fleet.selection.has(device.deviceId)}
            onTap={onTap}
          />
        ))}
      </View>,
    )
  }

  return (
    <ScrollView
      className={styles.gridScroll}
      scrollY
      onScroll={(e) => {
        // re-render only when the rendered rows or the rows on screen change
        const top = e.detail.scrollTop
        if (rowsKey(top) !== rowsKey(scrollTop)) setScrollTop(top)
      }}
    >
      <View
        className={styles.gridSpace}
        style={{ height: `${rowCount * metrics.rowHeight + metrics.gap}px` }}
      >
        {rows}
      </View>
      {fleet.status === 'loading' && <View className={styles.footer}>{LIST_TEXTS.loading}</View>}
      {!fleet.hasMore && devices.length > 0 && (
        <View className={styles.footer}>{LIST_TEXTS.noMore}</View>
      )}
    </ScrollView>
  )
}

export default observer(MultiView)
