import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import Picture from '@/components/Picture'
import { observer } from 'mobx-react'
import { Badge, Button, Cell, Tag } from '@nutui/nutui-react-taro'
import LinkCell from '@/components/LinkCell'
import { useStores } from '@/stores'
import { fileUrl } from '@/runtime/request'
import { maskPhone } from '@/domain/formatters'
import { navigate } from '@/runtime/navigation'
import { APP_VERSION } from '@/constants/limits'
import styles from './user.module.scss'

function Mine() {
  const { session, unread } = useStores()
  const info = session.info

  useDidShow(() => {
    if (session.isLoggedIn) session.loadUserInfo().catch(() => undefined)
  })

  return (
    <View className={styles.page}>
      <View className={styles.header}>
        {session.isLoggedIn && info ? (
          <View className={styles.profile} onClick={() => navigate('personalData')} role="button">
            <Picture
              alt="头像"
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
            <Picture alt="" className={styles.avatar} src={require('@/assets/avatar.png')} />
            <View className={styles.who}>
              <Text className={styles.name}>未登录</Text>
              <Button size="small" type="primary" onClick={() => navigate('login')}>
                登录 / 注册
              </Button>
            </View>
          </View>
        )}
      </View>

      <Cell.Group>
        <LinkCell
          title="消息中心"
          onClick={() => navigate('message')}
          extra={unread.total > 0 ? <Badge value={unread.total} max={99} /> : undefined}
        />
        <LinkCell title="个人资料" onClick={() => navigate('personalData')} />
        <LinkCell
          title={session.info?.hasPassword === false ? '设置密码' : '修改密码'}
          onClick={() =>
            navigate(session.info?.hasPassword === false ? 'setPassword' : 'changePassword')
          }
        />
        <LinkCell title="更换手机号" onClick={() => navigate('changePhone')} />
        <LinkCell title="切换账号" onClick={() => navigate('accountList')} />
      </Cell.Group>
      <Cell.Group>
        <LinkCell title="扫一扫" onClick={() => navigate('scan')} />
        <LinkCell title="分组管理" onClick={() => navigate('group')} />
        <LinkCell title="授权管理" onClick={() => navigate('empower')} />
        <LinkCell title="转移记录" onClick={() => navigate('deviceTransfer')} />
        <LinkCell title="我的云豆" onClick={() => navigate('recharge')} />
        <LinkCell title="云豆明细" onClick={() => navigate('cloudBeansList')} />
        <LinkCell title="云豆转包月" onClick={() => navigate('cloudBeanToMonthly')} />
        <LinkCell title="激活码" onClick={() => navigate('activateDevice')} />
        <LinkCell title="云空间" onClick={() => navigate('space')} />
        <LinkCell title="应用管理" onClick={() => navigate('apps')} />
        <LinkCell title="优惠券" onClick={() => navigate('coupon')} />
        <LinkCell title="悬浮球设置" onClick={() => navigate('floatingBall')} />
        <LinkCell title="邀请好友" onClick={() => navigate('invite')} />
      </Cell.Group>
      <Cell.Group>
        <LinkCell title="联系客服" onClick={() => navigate('customerService')} />
        <LinkCell title="用户协议" onClick={() => navigate('protocol', { type: 'user' })} />
        <LinkCell title="隐私政策" onClick={() => navigate('protocol', { type: 'privacy' })} />
        <LinkCell title="权限管理" onClick={() => navigate('permission')} />
        <LinkCell title="设置" onClick={() => navigate('config')} extra={`v${APP_VERSION}`} />
      </Cell.Group>
    </View>
  )
}

export default observer(Mine)
