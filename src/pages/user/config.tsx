import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Cell } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { url } from '@/constants/routes'
import { navigate as go } from '@/runtime/navigation'
import LinkCell from '@/components/LinkCell'
import { APP_VERSION } from '@/constants/limits'
import { confirm, toastError } from '@/runtime/feedback'
import styles from './config.module.scss'

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
        <LinkCell title="个人资料" onClick={() => go('personalData')} />
        <LinkCell
          title={hasPassword ? '修改密码' : '设置密码'}
          onClick={() => go(hasPassword ? 'changePassword' : 'setPassword')}
        />
        <LinkCell title="更换手机号" onClick={() => go('changePhone')} />
        <LinkCell title="切换账号" onClick={() => go('accountList')} />
      </Cell.Group>
      <Cell.Group title="通用">
        <LinkCell title="消息设置" onClick={() => go('messageSet')} />
        <LinkCell title="权限管理" onClick={() => go('permission')} />
      </Cell.Group>
      <Cell.Group title="关于">
        <LinkCell title="用户协议" onClick={() => go('protocol', { type: 'user' })} />
        <LinkCell title="隐私政策" onClick={() => go('protocol', { type: 'privacy' })} />
        <LinkCell title="关于" onClick={showAbout} extra={`v${APP_VERSION}`} />
      </Cell.Group>
      <Cell.Group>
        <LinkCell title="注销账号" onClick={() => go('logOut')} />
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
