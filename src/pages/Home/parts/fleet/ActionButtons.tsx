import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { ACTION_LABELS, type DeviceAction } from '@/domain/device-permissions'
import styles from './fleet.module.scss'

/** The phone's permitted actions: 进入 large, the rest as a grid of small buttons. */
export default function ActionButtons({
  actions,
  onAction,
}: {
  actions: DeviceAction[]
  onAction: (action: DeviceAction) => void
}) {
  const rest = actions.filter((a) => a !== 'enter')
  return (
    <View className={styles.actions}>
      {actions.includes('enter') && (
        <Button type="primary" block onClick={() => onAction('enter')}>
          {ACTION_LABELS.enter}
        </Button>
      )}
      <View className={styles.actionGrid}>
        {rest.map((action) => (
          <Button key={action} size="small" fill="outline" onClick={() => onAction(action)}>
            {ACTION_LABELS[action]}
          </Button>
        ))}
      </View>
    </View>
  )
}
