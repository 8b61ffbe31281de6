import Taro, { useDidShow } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Badge, Button, Cell, Tag } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { fileUrl } from '@/services/request'
import { maskPhone } from '@/domain/formatters'
import { requiresLogin, url, type RouteName } from '@/constants/routes'
import { APP_VERSION } from '@/constants/limits'
import styles from './user.module.scss'

function Mine() {
  const { session, unread } = useStores()
  const info = session.info
  // a logged-out visitor is sent to login first and brought back to the page they chose (SPEC 2)
  const go = (name: RouteName, query?: Record<string, string>) => {
    const target = url(name, query)
    const gated = requiresLogin(target) && !session.isLoggedIn
    return Taro.navigateTo({ url: gated ? url('login', { redirect: target }) : target })
  }

  useDidShow(() => {
    if (session.isLoggedIn) session.loadUserInfo().catch(() => undefined)
  })

  return (
    <View className={styles.page}>
      <View className={styles.header}>
        {session.isLoggedIn && info ? (
          <View
            className={styles.profile}
            onClick={() => go('personalData')}
            role="button"
            aria-label="个人资料"
          >
            <Image
              className={styles.avatar}
              src={info.avatar ? fileUrl(info.avatar) : require('@/assets/avatar.png')}
              mode="aspectFill"
            />
            <View className={styles.who}>
              <Text className={styles.name}>{info.name || '云手机用户'}</Text>
              <View className={styles.meta}>
                <Text>{maskPhone(info.mobilePhone)}</Text>
                <Tag type={session.isVerified ? 'success' : 'default'} plain>
                  {session.isVerified ? '已实名' : '未实名'}
                </Tag>
                {info.userType === 2 && (
                  <Tag type="primary" plain>
                    企业
                  </Tag>
                )}
              </View>
            </View>
          </View>
        ) : (
          <View className={styles.profile}>
            <Image className={styles.avatar} src={require('@/assets/avatar.png')} />
            <View className={styles.who}>
              <Text className={styles.name}>未登录</Text>
              <Button
                size="small"
                type="primary"
                onClick={() => Taro.navigateTo({ url: url('login') })}
              >
                登录 / 注册
              </Button>
            </View>
          </View>
        )}
      </View>

      <Cell.Group>
        <Cell
          title="消息中心"
          clickable
          onClick={() => go('message')}
          extra={unread.total > 0 ? <Badge value={unread.total} max={99} /> : undefined}
        />
        <Cell title="个人资料" clickable onClick={() => go('personalData')} />
        <Cell
          title={session.info?.hasPassword === false ? '设置密码' : '修改密码'}
          clickable
          onClick={() => go(session.info?.hasPassword === false ? 'setPassword' : 'changePassword')}
        />
        <Cell title="更换手机号" clickable onClick={() => go('changePhone')} />
        <Cell title="切换账号" clickable onClick={() => go('accountList')} />
      </Cell.Group>
      <Cell.Group>
        <Cell title="联系客服" clickable onClick={() => go('customerService')} />
        <Cell title="用户协议" clickable onClick={() => go('protocol', { type: 'user' })} />
        <Cell title="隐私政策" clickable onClick={() => go('protocol', { type: 'privacy' })} />
        <Cell title="权限管理" clickable onClick={() => go('permission')} />
        <Cell title="设置" clickable onClick={() => go('config')} extra={`v${APP_VERSION}`} />
      </Cell.Group>
    </View>
  )
}

export default observer(Mine)
