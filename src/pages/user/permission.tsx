import { useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button, Cell, Tag } from '@nutui/nutui-react-taro'
import { toastError } from '@/runtime/feedback'
import {
  H5_PERMISSIONS,
  STATE_LABELS,
  WEAPP_SCOPES,
  weappLabel,
  type PermissionState,
} from './parts/permissions/permission-items'
import {
  readBrowserPermissions,
  readWeappPermissions,
  type PermissionStates,
} from './parts/permissions/read-permissions'
import styles from './permission.module.scss'

const isWeapp = process.env.TARO_ENV === 'weapp'
const items = isWeapp ? WEAPP_SCOPES : H5_PERMISSIONS
const tagType = (state?: PermissionState) =>
  state === 'granted' ? 'success' : state === 'denied' ? 'danger' : 'default'
const stateText = (state?: PermissionState) =>
  !state ? '查询中' : isWeapp ? weappLabel(state) : STATE_LABELS[state]

/** 权限管理: what the app may use; the mini-program opens its settings, a browser explains its own. */
export default function Permission() {
  const [states, setStates] = useState<PermissionStates>({})

  const refresh = () =>
    (isWeapp ? readWeappPermissions() : readBrowserPermissions()).then(setStates).catch(toastError)

  // coming back from the settings page may have changed them
  useDidShow(() => {
    refresh()
  })

  const openSetting = async () => {
    try {
      await Taro.openSetting()
      await refresh()
    } catch (error) {
      toastError(error, '无法打开设置，请稍后重试')
    }
  }

  return (
    <View className={styles.page}>
      <Cell.Group>
        {items.map((item) => (
          <Cell
            key={item.key}
            title={item.label}
            description={item.usage}
            extra={
              <Tag type={tagType(states[item.key])} plain>
                {stateText(states[item.key])}
              </Tag>
            }
          />
        ))}
      </Cell.Group>
      {isWeapp ? (
        <View className={styles.footer}>
          <Text className={styles.tip}>
            未出现在设置中的权限表示尚未申请，使用相关功能时会向您询问
          </Text>
          <Button type="primary" block onClick={openSetting}>
            去设置
          </Button>
        </View>
      ) : (
        <View className={styles.footer}>
          <Text className={styles.tip}>
            网页的权限由浏览器管理：请点击地址栏左侧的锁形图标或进入浏览器的“网站设置”，找到本站后修改位置、摄像头和通知权限，修改后返回本页即可看到最新状态。
          </Text>
        </View>
      )}
    </View>
  )
}
