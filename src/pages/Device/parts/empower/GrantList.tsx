import { useCallback, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { GrantDirection, GrantView } from '@/types/api'
import PagedList from '@/components/PagedList'
import { confirmDestructive, toastError, toastSuccess } from '@/runtime/feedback'
import { formatDateTime } from '@/domain/formatters'
import { GRANT_PERMISSION_LABELS, type GrantPermissionValue } from '@/domain/grants'
import { listGrants, revokeGrants } from '@/api/grant'
import styles from '../../device-page.module.scss'

/** Live grants by me (with 撤销) or to me. */
export default function GrantList({ direction }: { direction: GrantDirection }) {
  const [reloadKey, setReloadKey] = useState(0)
  const load = useCallback(
    (page: number, rows: number) => listGrants(direction, page, rows),
    [direction],
  )

  const revoke = async (grant: GrantView) => {
    const sure = await confirmDestructive(
      '撤销授权',
      `撤销后 ${grant.otherMobile} 将立即无法使用「${grant.deviceName}」，确定撤销吗？`,
    )
    if (!sure) return
    try {
      await revokeGrants([grant.grantId])
      toastSuccess('已撤销授权')
      setReloadKey((k) => k + 1)
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <PagedList<GrantView>
      key={direction}
      load={load}
      reloadKey={reloadKey}
      keyOf={(grant) => grant.grantId}
      emptyText={direction === 'out' ? '暂无授权出去的云手机' : '暂无授权给您的云手机'}
      renderItem={(grant) => (
        <View className={styles.record}>
          <View className={styles.recordHead}>
            <Text>{grant.deviceName}</Text>
            <Text className={styles.tag}>
              {GRANT_PERMISSION_LABELS[grant.permission as GrantPermissionValue]}
            </Text>
          </View>
          <Text className={styles.tag}>
            {direction === 'out' ? '授权给' : '来自'} {grant.otherMobile} · 到期{' '}
            {formatDateTime(grant.expiresAt)}
          </Text>
          {direction === 'out' && (
            <Button size="small" fill="outline" onClick={() => void revoke(grant)}>
              撤销授权
            </Button>
          )}
        </View>
      )}
    />
  )
}
