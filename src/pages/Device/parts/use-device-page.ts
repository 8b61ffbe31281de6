/** The phone a Device/* page works on (`deviceId` route param), loaded on show. */
import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import type { Device } from '@/types/api'
import { toastError } from '@/runtime/feedback'
import { getDevice } from '@/api/device'

export function useDevicePage() {
  const { params } = useRouter()
  const deviceId = Number(params.deviceId)
  const valid = Number.isInteger(deviceId) && deviceId > 0
  const [device, setDevice] = useState<Device | null>(null)
  const [missing, setMissing] = useState(!valid)

  const reload = async () => {
    if (!valid) return
    try {
      setDevice(await getDevice(deviceId))
    } catch (error) {
      setMissing(true)
      toastError(error)
    }
  }
  useDidShow(() => void reload())

  return { deviceId, device, missing, reload, setDevice }
}
