import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { validateBatchSelection } from '@/domain/batch-results'
import PromptDialog, { type PromptRequest } from '@/components/PromptDialog'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { UNGROUPED } from '@/domain/fleet-query'
import { GROUP_NAME_MAX, validateGroupName } from '@/domain/validators'
import { createGroup, moveDevices } from '@/api/group'
import { goBack } from '@/runtime/navigation'
import { useGroupList } from '../parts/use-group-list'
import styles from '../index.module.scss'

/** Move the phones passed as `deviceIds=1,2,3` to a group, or into a new one made with them. */
export default function MoveGroup() {
  const { params } = useRouter()
  const deviceIds = parseDeviceIds(params.deviceIds)
  const { list, load } = useGroupList()
  const [target, setTarget] = useState<number | null>(null)
  const [prompt, setPrompt] = useState<PromptRequest | null>(null)

  useLoad(() => void load())

  const problem = validateBatchSelection(deviceIds)

  // one step: the new group is made with the phones in it (the server does both or neither)
  const newGroup = () => {
    if (problem) return void toast(problem)
    setPrompt({
      title: '新建分组并移入',
      label: '分组名称',
      maxLength: GROUP_NAME_MAX,
      validate: validateGroupName,
      onConfirm: async (name) => {
        await createGroup(name, deviceIds)
        toastSuccess(`已新建分组并移入${deviceIds.length}台`)
        await goBack()
      },
    })
  }

  const submit = async () => {
    if (problem) return toast(problem)
    if (target === null) return toast('请选择分组')
    try {
      await moveDevices(deviceIds, target)
      toastSuccess('已移动')
      await goBack()
    } catch (error) {
      toastError(error)
    }
  }

  const options = [
    { groupId: UNGROUPED, name: '未分组' },
    ...(list?.groups ?? []).map((g) => ({ groupId: g.groupId, name: g.name })),
  ]

  return (
    <View className={styles.page}>
      <View className={styles.hint}>
        {problem ?? `将选中的${deviceIds.length}台云手机移动到：`}
      </View>
      <View role="radiogroup" aria-label="目标分组">
        {options.map((option) => (
          <View
            key={option.groupId}
            className={styles.row}
            role="radio"
            aria-checked={target === option.groupId}
            aria-label={option.name}
            onClick={() => setTarget(option.groupId)}
          >
            <Text className={`${styles.name} ${target === option.groupId ? styles.selected : ''}`}>
              {option.name}
            </Text>
            {target === option.groupId && <Text className={styles.selected}>✓</Text>}
          </View>
        ))}
      </View>
      <View className={styles.footer}>
        <Button className={styles.footerButton} disabled={Boolean(problem)} onClick={newGroup}>
          新建分组并移入
        </Button>
        <Button
          className={styles.footerButton}
          type="primary"
          disabled={Boolean(problem)}
          onClick={submit}
        >
          确定
        </Button>
      </View>
      <PromptDialog request={prompt} onClose={() => setPrompt(null)} />
    </View>
  )
}
