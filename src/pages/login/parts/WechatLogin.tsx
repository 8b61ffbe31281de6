import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import platform from '@/platform'
import { url } from '@/constants/routes'
import BindPhoneForm from '@/components/BindPhoneForm'
import { toast, toastError } from '@/runtime/feedback'
import { finishLogin } from '@/runtime/finish-login'
import styles from '../login.module.scss'

/** WeChat login is offered in the mini-program and in WeChat's browser, not in another browser. */
export const wechatLoginOffered = (): boolean =>
  process.env.TARO_ENV !== 'h5' || platform.isWeChatBrowser()

/**
 * WeChat login: in the mini-program through wx.login + code2session, in the WeChat browser through the
 * official-account OAuth redirect; elsewhere (a plain mobile browser) WeChat login is not offered.
 */
export default function WechatLogin({ agreed, redirect }: { agreed: boolean; redirect?: string }) {
  const { session } = useStores()
  const [needsBinding, setNeedsBinding] = useState(false)

  if (!wechatLoginOffered()) return null

  const start = async () => {
    if (!agreed) return toast('请先阅读并同意《用户协议》和《隐私政策》')
    if (process.env.TARO_ENV !== 'weapp') {
      // the login page's redirect is as Taro's router hands it over, still URL-encoded
      const returnTo = redirect ? decodeURIComponent(redirect) : url('mine')
      platform.officialAccountAuthorize(session.channel, returnTo)
      return
    }
    try {
      const { bound } = await session.loginWithWechat()
      if (!bound) return setNeedsBinding(true)
      await finishLogin(session, redirect)
    } catch (error) {
      toastError(error, '微信登录失败，请稍后重试')
    }
  }

  if (needsBinding) {
    return (
      <View className={styles.bind}>
        <Text>首次使用微信登录，请绑定手机号</Text>
        <BindPhoneForm
          submitText="绑定并登录"
          smsType="login"
          onSubmit={async (form) => {
            try {
              await session.bindWechat(form)
            } catch (error) {
              // the bind ticket expired or was used: back to 微信一键登录 for a new one
              if (!session.wechatBind) setNeedsBinding(false)
              throw error
            }
            await finishLogin(session, redirect)
          }}
        />
      </View>
    )
  }
  return (
    <View className={styles.wechat}>
      <Button type="success" block onClick={start} aria-label="微信登录">
        微信一键登录
      </Button>
    </View>
  )
}
