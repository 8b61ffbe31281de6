import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { DeviceGroup } from '@/types/api'
import EmptyState from '@/components/EmptyState'
import { confirmDestructive, toastError, toastSuccess } from '@/runtime/feedback'
import PromptDialog, { type PromptRequest } from '@/components/PromptDialog'
import { GROUP_NAME_MAX, validateGroupName } from '@/domain/validators'
import { UNGROUPED } from '@/domain/fleet-query'
import { createGroup, deleteGroup, renameGroup, sortGroups } from '@/api/group'
import { navigate } from '@/runtime/navigation'
import { useStores } from '@/stores'
import { moveInOrder } from './parts/group-order'
import { useGroupList } from './parts/use-group-list'
import styles from './index.module.scss'

/** Group management: counts, create, rename, delete, order; a tap shows that group on Home. */
export default function GroupIndex() {
  const { app } = useStores()
  const { list, load } = useGroupList()
  const [prompt, setPrompt] = useState<PromptRequest | null>(null)

  useDidShow(() => void load())

  const groups = list?.groups ?? []

  const showOnHome = (groupId: number) => {
    app.setHomeGroupId(groupId)
    void navigate('home')
  }

  const nameGroup = (group?: DeviceGroup) =>
    setPrompt({
      title: group ? '重命名分组' : '新建分组',
      label: '分组名称',
      initial: group?.name ?? '',
      maxLength: GROUP_NAME_MAX,
      validate: validateGroupName,
      onConfirm: async (name) => {
        if (group) await renameGroup(group.groupId, name)
        else await createGroup(name)
        toastSuccess(group ? '已重命名' : '分组已创建')
        await load()
      },
    })

  const remove = async (group: DeviceGroup) => {
    const ok = await confirmDestructive(
      '删除分组',
      `删除“${group.name}”后，其中的${group.deviceCount}台云手机将移至未分组，确定删除吗？`,
      '删除',
    )
    if (!ok) return
    try {
      await deleteGroup(group.groupId)
      if (Number(app.homeGroupId) === group.groupId) app.setHomeGroupId(null)
      toastSuccess('分组已删除')
      await load()
    } catch (error) {
      toastError(error)
    }
  }

  const move = async (index: number, direction: 'up' | 'down') => {
    const ids = moveInOrder(
      groups.map((g) => g.groupId),
      index,
      direction,
    )
    try {
      await sortGroups(ids)
      await load()
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.row} role="button" onClick={() => showOnHome(UNGROUPED)}>
        <Text className={styles.name}>未分组</Text>
        <Text className={styles.count}>{list?.ungroupedCount ?? 0}台</Text>
      </View>
      {groups.map((group, index) => (
        <View key={group.groupId} className={styles.row}>
          <View
            className={styles.name}
            role="button"
            aria-label={group.name}
            onClick={() => showOnHome(group.groupId)}
          >
            {group.name}
          </View>
          <Text className={styles.count}>{group.deviceCount}台</Text>
          <View className={styles.ops}>
            <View
              className={index === 0 ? styles.disabled : undefined}
              role="button"
              aria-label={`上移${group.name}`}
              onClick={() => index > 0 && void move(index, 'up')}
            >
              上移
            </View>
            <View
              className={index === groups.length - 1 ? styles.disabled : undefined}
              role="button"
              aria-label={`下移${group.name}`}
              onClick={() => index < groups.length - 1 && void move(index, 'down')}
            >
              下移
            </View>
            <View role="button" aria-label={`重命名${group.name}`} onClick={() => nameGroup(group)}>
              重命名
            </View>
            <View
              className={styles.danger}
              role="button"
              aria-label={`删除${group.name}`}
              onClick={() => void remove(group)}
            >
              删除
            </View>
          </View>
        </View>
      ))}
      {list && groups.length === 0 && (
        <EmptyState description="还没有分组，新建分组后可把云手机分类管理" />
      )}
      <View className={styles.footer}>
        <Button type="primary" block onClick={() => nameGroup()}>
          新建分组
        </Button>
      </View>
      <PromptDialog request={prompt} onClose={() => setPrompt(null)} />
    </View>
  )
}
