import { useCallback, useEffect, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { Device } from '@/types/api'
import PagedList from '@/components/PagedList'
import { SEARCH_PLACEHOLDER } from '@/constants/limits'
import { KEYWORD_MAX_LENGTH } from '@/domain/fleet-query'
import { listDevices } from '@/api/device'
import styles from './apps.module.scss'

/** How long typing pauses before the list is searched again. */
const SEARCH_PAUSE_MS = 300

/**
 * 选择云机: the user's phones, searched by name or id and loaded a page at a time as the list scrolls,
 * each ticked or not; the ticks stay through searches. 安装 hands the ticked ids back.
 */
export default function PhoneChooser({
  appName,
  onInstall,
  onCancel,
}: {
  appName: string
  onInstall: (deviceIds: number[]) => void
  onCancel: () => void
}) {
  const [typed, setTyped] = useState('')
  const [keyword, setKeyword] = useState('')
  const [chosen, setChosen] = useState<Map<number, string>>(new Map())

  useEffect(() => {
    const pause = setTimeout(() => setKeyword(typed.trim()), SEARCH_PAUSE_MS)
    return () => clearTimeout(pause)
  }, [typed])

  const load = useCallback(
    (page: number, rows: number) => listDevices(keyword ? { keyword } : {}, page, rows),
    [keyword],
  )

  const toggle = (device: Device) =>
    setChosen((before) => {
      const next = new Map(before)
      if (next.has(device.deviceId)) next.delete(device.deviceId)
      else next.set(device.deviceId, device.name)
      return next
    })

  return (
    <View className={styles.chooser} role="dialog" aria-label="选择云机">
      <Text className={styles.name}>将「{appName}」安装到</Text>
      <Input
        className={styles.search}
        value={typed}
        placeholder={SEARCH_PLACEHOLDER}
        maxlength={KEYWORD_MAX_LENGTH}
        aria-label="搜索云手机"
        onInput={(event) => setTyped(event.detail.value)}
      />
      <PagedList<Device>
        className={styles.chooserList}
        load={load}
        reloadKey={keyword}
        keyOf={(device) => device.deviceId}
        emptyText={keyword ? '没有找到云手机' : '还没有云手机'}
        renderItem={(device) => {
          const on = chosen.has(device.deviceId)
          return (
            <View
              className={styles.pick}
              role="checkbox"
              aria-checked={on}
              aria-label={device.name}
              onClick={() => toggle(device)}
            >
              <View className={on ? styles.tickOn : styles.tick} aria-hidden>
                {on ? '✓' : ''}
              </View>
              <Text className={styles.name}>{device.name}</Text>
            </View>
          )
        }}
      />
      <View className={styles.chooserBar}>
        <Text className={styles.chosenCount}>已选{chosen.size}台</Text>
        <Button size="small" onClick={onCancel}>
          取消
        </Button>
        <Button
          size="small"
          type="primary"
          disabled={chosen.size === 0}
          onClick={() => onInstall([...chosen.keys()])}
        >
          安装
        </Button>
      </View>
    </View>
  )
}
