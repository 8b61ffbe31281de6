import { useEffect, useRef, useState } from 'react'
import Taro, { useDidHide, useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import NavBar from '@/components/NavBar'
import { useStores } from '@/stores'
import { url } from '@/constants/routes'
import SignedInHome from './LoadSignedInHome'
import styles from './index.module.scss'

/** My cloud phones: the fleet when logged in, an invitation to log in otherwise. */
function Home() {
  const { session, fleet } = useStores()
  const [shown, setShown] = useState(true)

  const load = () => {
    if (!session.isLoggedIn) return
    void fleet.reload()
    fleet.loadGroups().catch(() => undefined) // the filter then offers 全部/未分组 only
    fleet.loadStatusList().catch(() => undefined) // statuses then show our own labels
  }

  useDidShow(() => {
    setShown(true)
    load()
  })
  useDidHide(() => setShown(false))

  // another account's phones must never show, not even for a moment
  const token = useRef(session.token)
  useEffect(() => {
    if (token.current === session.token) return
    token.current = session.token
    fleet.reset()
    if (shown) load()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.token])

  return (
    <View className={styles.page}>
      <NavBar title="我的云机" />
      {session.isLoggedIn ? (
        <SignedInHome active={shown} />
      ) : (
        <View className={styles.body}>
          <EmptyState
            title="登录后查看您的云手机"
            description="云端安卓手机，24小时在线，随时随地使用"
          />
          <Button
            type="primary"
            block
            onClick={() => Taro.navigateTo({ url: url('login', { redirect: url('home') }) })}
          >
            登录 / 注册
          </Button>
          <Text className={styles.tip}>未注册的手机号验证后将自动创建账号</Text>
        </View>
      )}
    </View>
  )
}

export default observer(Home)
