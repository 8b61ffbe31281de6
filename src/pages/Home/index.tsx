import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import NavBar from '@/components/NavBar'
import { useStores } from '@/stores'
import { url } from '@/constants/routes'
import styles from './index.module.scss'

/** My cloud phones. The fleet itself (cards, views, operations) comes with the cloud-phone feature. */
function Home() {
  const { session } = useStores()
  return (
    <View className={styles.page}>
      <NavBar title="我的云机" />
      {session.isLoggedIn ? (
        <View className={styles.body}>
          <EmptyState
            title="您还没有云手机"
            description="购买后，云手机会出现在这里，可随时进入、重启和续费"
          />
          <Button type="primary" block onClick={() => Taro.switchTab({ url: url('create') })}>
            去创建云机
          </Button>
        </View>
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
