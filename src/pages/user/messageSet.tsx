import { useState } from 'react'
import { useLoad } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Cell, Switch } from '@nutui/nutui-react-taro'
import { ariaRole } from '@/platform/a11y'
import { getMessageSettings, updateMessageSettings } from '@/api/message'
import { toastError } from '@/runtime/feedback'
import { MESSAGE_CATEGORIES, type SettingKey } from './parts/messages/message-categories'
import styles from './messageSet.module.scss'

type Settings = Record<SettingKey, boolean>

/** Which message categories to receive; each switch saves at once, 系统消息 always stays on. */
export default function MessageSet() {
  const [settings, setSettings] = useState<Settings>()

  useLoad(() => {
    getMessageSettings().then(setSettings).catch(toastError)
  })

  const change = async (key: SettingKey, value: boolean) => {
    if (!settings) return
    const previous = settings
    setSettings({ ...settings, [key]: value })
    try {
      await updateMessageSettings({ [key]: value })
    } catch (error) {
      setSettings(previous)
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <Cell.Group>
        {MESSAGE_CATEGORIES.map((category) => (
          <Cell
            key={category.settingKey}
            title={category.label}
            description={category.description}
            extra={
              <Switch
                {...ariaRole('switch')}
                ariaLabel={`接收${category.label}`}
                checked={category.locked ? true : (settings?.[category.settingKey] ?? false)}
                disabled={category.locked || !settings}
                onChange={(value) => change(category.settingKey, value)}
              />
            }
          />
        ))}
      </Cell.Group>
      <Text className={styles.tip}>关闭后将不再收到该类消息，系统消息涉及账号安全，无法关闭</Text>
    </View>
  )
}
