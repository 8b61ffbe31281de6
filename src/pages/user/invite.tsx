import Taro, { useShareAppMessage } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import PagedList from '@/components/PagedList'
import { listInvitees } from '@/api/engagement'
import { toastSuccess } from '@/runtime/feedback'
import { formatDateTime } from '@/domain/formatters'
import { url } from '@/constants/routes'
import styles from './invite.module.scss'

const isH5 = process.env.TARO_ENV === 'h5'

/** A link that opens Home with my code; whoever registers after opening it is bound to me. */
const inviteLink = (code: string) => url('home', { inviteCode: code, inviteType: 1 })

/** My invite code (copy, share) and who joined with it. Outside SPEC's page list (docs/decisions.md). */
function Invite() {
  const { session } = useStores()
  const code = session.info?.inviteCode ?? ''

  useShareAppMessage(() => ({ title: '我在用云手机，注册即可免费试用', path: inviteLink(code) }))

  const copy = (data: string, done: string) =>
    Taro.setClipboardData({ data }).then(() => toastSuccess(done))

  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.label}>我的邀请码</Text>
        <Text className={styles.code} aria-label="我的邀请码">
          {code}
        </Text>
        <Text className={styles.tip}>好友通过您的邀请链接注册后，会出现在下方列表中</Text>
        <View className={styles.actions}>
          <Button fill="outline" disabled={!code} onClick={() => copy(code, '邀请码已复制')}>
            复制邀请码
          </Button>
          {isH5 ? (
            <Button
              type="primary"
              disabled={!code}
              onClick={() => copy(`${window.location.origin}${inviteLink(code)}`, '邀请链接已复制')}
            >
              复制邀请链接
            </Button>
          ) : (
            <Button type="primary" openType="share" disabled={!code}>
              分享给好友
            </Button>
          )}
        </View>
      </View>
      <Text className={styles.section}>已邀请的好友</Text>
      <PagedList
        load={(page, rows) => listInvitees(page, rows)}
        keyOf={(item) => `${item.mobilePhone}-${item.joinedAt}`}
        emptyText="还没有好友通过您的邀请注册"
        renderItem={(item) => (
          <View className={styles.row}>
            <Text className={styles.phone}>{item.mobilePhone}</Text>
            <Text className={styles.time}>{`${formatDateTime(item.joinedAt)} 加入`}</Text>
          </View>
        )}
      />
    </View>
  )
}

export default observer(Invite)
