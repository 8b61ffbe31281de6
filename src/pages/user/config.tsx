import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Cell } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { url, type RouteName } from '@/constants/routes'
import { APP_VERSION } from '@/constants/limits'
import { confirm, toastError } from '@/components/feedback'
import styles from './config.module.scss'

const go = (name: RouteName, query?: Record<string, string>) =>
  Taro.navigateTo({ url: url(name, query) })

const showAbout = () =>
  Taro.showModal({
    title: '关于云手机',
    content: `当前版本 v${APP_VERSION}\n云端安卓手机，随租随用`,
    showCancel: false,
    confirmText: '知道了',
  })

/** 设置: account security, messages, permissions, agreements, about, switching and signing out. */
function Config() {
  const { session } = useStores()
  const hasPassword = session.info?.hasPassword !== false

  const signOut = async () => {
    if (!(await confirm('退出登录', '确定退出当前账号吗？', '退出'))) return
    try {
      await session.logout()
      Taro.switchTab({ url: url('mine') })
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View className={styles.page}>
      <Cell.Group title="账号与安全">
        <Cell title="个人资料" clickable onClick={() => go('personalData')} />
        <Cell
          title={hasPassword ? '修改密码' : '设置密码'}
          clickable
          onClick={() => go(hasPassword ? 'changePassword' : 'setPassword')}
        />
        <Cell title="更换手机号" clickable onClick={() => go('changePhone')} />
        <Cell title="切换账号" clickable onClick={() => go('accountList')} />
      </Cell.Group>
      <Cell.Group title="通用">
        <Cell title="消息设置" clickable onClick={() => go('messageSet')} />
        <Cell title="权限管理" clickable onClick={() => go('permission')} />
      </Cell.Group>
      <Cell.Group title="关于">
        <Cell title="用户协议" clickable onClick={() => go('protocol', { type: 'user' })} />
        <Cell title="隐私政策" clickable onClick={() => go('protocol', { type: 'privacy' })} />
        <Cell title="关于" clickable onClick={showAbout} extra={`v${APP_VERSION}`} />
      </Cell.Group>
      <Cell.Group>
        <Cell title="注销账号" clickable onClick={() => go('logOut')} />
      </Cell.Group>
      {session.isLoggedIn && (
        <View className={styles.footer}>
          <Button block type="default" onClick={signOut}>
            退出登录
          </Button>
        </View>
      )}
    </View>
  )
}

export default observer(Config)
