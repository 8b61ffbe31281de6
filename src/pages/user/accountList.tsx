import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Picture from '@/components/Picture'
import { observer } from 'mobx-react'
import { Button, Tag } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import { useStores, type StoredAccount } from '@/stores'
import { fileUrl } from '@/runtime/request'
import { maskPhone } from '@/domain/formatters'
import { url } from '@/constants/routes'
import { confirmDestructive, toastError } from '@/runtime/feedback'
import styles from './accountList.module.scss'

/** Accounts that logged in on this device: tap one to switch to it, or take it off the list. */
function AccountList() {
  const { session } = useStores()
  const currentId = session.isLoggedIn ? session.userId : null

  const switchTo = async (account: StoredAccount) => {
    if (account.userId === currentId) return
    try {
      await session.switchAccount(account.userId)
      Taro.reLaunch({ url: url('mine') })
    } catch (error) {
      toastError(error)
    }
  }

  const remove = async (account: StoredAccount) => {
    const current = account.userId === currentId
    const ok = await confirmDestructive(
      '移除账号',
      current
        ? '移除当前账号后将退出登录，确定移除吗？'
        : `确定将 ${maskPhone(account.mobilePhone)} 从列表中移除吗？`,
      '移除',
    )
    if (!ok) return
    // logging out also takes the current account off the list
    if (current) await session.logout()
    else session.removeAccount(account.userId)
  }

  return (
    <View className={styles.page}>
      {session.accountList.length === 0 && <EmptyState description="本机还没有登录过的账号" />}
      {session.accountList.map((account) => {
        const current = account.userId === currentId
        const phone = maskPhone(account.mobilePhone)
        return (
          <View key={account.userId} className={styles.item}>
            <View
              className={styles.main}
              role="button"
              aria-label={current ? `当前账号 ${phone}` : `切换到 ${phone}`}
              onClick={() => switchTo(account)}
            >
              <Picture
                alt=""
                className={styles.avatar}
                src={account.avatar ? fileUrl(account.avatar) : require('@/assets/avatar.png')}
                mode="aspectFill"
              />
              <View className={styles.who}>
                <Text className={styles.name}>{account.name || '云手机用户'}</Text>
                <Text className={styles.phone}>{phone}</Text>
              </View>
              {current && <Tag type="success">当前</Tag>}
            </View>
            <View
              className={styles.remove}
              role="button"
              aria-label={`移除 ${phone}`}
              onClick={() => remove(account)}
            >
              移除
            </View>
          </View>
        )
      })}
      <Button
        className={styles.add}
        type="primary"
        fill="outline"
        block
        onClick={() => Taro.navigateTo({ url: url('login') })}
      >
        添加账号
      </Button>
    </View>
  )
}

export default observer(AccountList)
