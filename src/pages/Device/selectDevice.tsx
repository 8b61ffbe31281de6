import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { DeviceModel } from '@/types/api'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { listModels, setModel } from '@/api/device'
import { goBack } from '@/runtime/navigation'
import { useDevicePage } from './parts/use-device-page'
import styles from './device-page.module.scss'

/** The phone model the cloud phone presents itself as (brand and model apps see). */
export default function SelectDevice() {
  const { deviceId, device, missing } = useDevicePage()
  const [models, setModels] = useState<DeviceModel[] | null>(null)
  const [chosen, setChosen] = useState<string | null>(null)

  useEffect(() => {
    listModels()
      .then(setModels)
      .catch((error) => {
        setModels([])
        toastError(error)
      })
  }, [])

  const current = models?.find((m) => m.name === device?.model)

  const submit = async () => {
    if (chosen === null) return toast('请选择机型')
    try {
      await setModel(deviceId, chosen)
      toastSuccess('机型已更换，重启后生效')
      await goBack()
    } catch (error) {
      toastError(error)
    }
  }

  if (missing) return <View className={styles.centre}>云手机不存在或已释放</View>
  if (!models) return <View className={styles.centre}>加载中...</View>
  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.label}>{device?.name ?? ''} 当前机型</Text>
        <Text className={styles.value}>{device?.model || '默认机型'}</Text>
      </View>
      <View role="radiogroup" aria-label="机型">
        {models.map((model) => {
          const selected = (chosen ?? current?.modelId) === model.modelId
          return (
            <View
              key={model.modelId}
              role="radio"
              aria-checked={selected}
              aria-label={model.name}
              className={`${styles.row} ${selected ? styles.rowSelected : ''}`}
              onClick={() => setChosen(model.modelId)}
            >
              <Text>{model.name}</Text>
              {current?.modelId === model.modelId && <Text className={styles.tag}>当前</Text>}
            </View>
          )
        })}
      </View>
      <View className={styles.footer}>
        <Button
          type="primary"
          block
          disabled={chosen === null || chosen === current?.modelId}
          onClick={submit}
        >
          确定
        </Button>
      </View>
    </View>
  )
}
