import { useState } from 'react'
// one import from @tarojs/taro: the H5 build's Taro API transform left `_Taro` undefined with two
import Taro, { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import { useStores } from '@/stores'
import BindPhoneForm from '@/components/BindPhoneForm'
import { url } from '@/constants/routes'
import platform from '@/platform'
import { takeOAuthState } from '@/platform/oauth'
import { finishLogin } from '@/runtime/finish-login'
import styles from './wechatAuth.module.scss'

const decoded = (value: string | undefined) => {
  try {
    return value && decodeURIComponent(value)
  } catch {
    return undefined // malformed: treated as no code
  }
}

const WECHAT_REAUTHORISE = '微信授权已失效，请重新发起微信登录'

type Step = { kind: 'checking' } | { kind: 'bind' } | { kind: 'failed'; msg: string }

/**
 * Where every official-account OAuth redirect lands (isWeChatAuth=1): exchanges the code, logs in or
 * binds a phone with the bind ticket, then goes on to `redirect`, the page the visitor came from.
 */
export default function WechatAuth() {
  const { session } = useStores()
  const { params } = useRouter()
  const [step, setStep] = useState<Step>({ kind: 'checking' })

  useLoad(async () => {
    // Taro's H5 router hands query values over still URL-encoded
    const code = decoded(params.code)
    if (!code) return setStep({ kind: 'failed', msg: '缺少微信授权码，请重新发起微信登录' })
    // only the authorisation this browser started: a code from someone else's link would log the
    // visitor into that WeChat's account, or bind it to their number
    if (!takeOAuthState(platform.storage, params.state)) {
      return setStep({ kind: 'failed', msg: WECHAT_REAUTHORISE })
    }
    // SPEC 7: a failed official-account login is only logged (by the store); the page says what to do
    const result = await session.officialAccountLogin(code)
    if (!result) return setStep({ kind: 'failed', msg: WECHAT_REAUTHORISE })
    if (!result.bound) return setStep({ kind: 'bind' })
    await finishLogin(session, params.redirect)
  })

  if (step.kind === 'checking') return <View className={styles.page}>正在进行微信授权…</View>
  if (step.kind === 'failed') {
    return (
      <View className={styles.page}>
        <EmptyState status="error" title="微信授权失败" description={step.msg} />
        <Button
          type="primary"
          block
          onClick={() => Taro.redirectTo({ url: url('login', { redirect: params.redirect }) })}
        >
          使用手机号登录
        </Button>
      </View>
    )
  }
  return (
    <View className={styles.page}>
      <Text className={styles.title}>绑定手机号</Text>
      <Text className={styles.desc}>首次使用微信登录，请绑定手机号，之后可直接微信登录</Text>
      <BindPhoneForm
        submitText="绑定并登录"
        smsType="login"
        onSubmit={async (form) => {
          try {
            await session.bindWechat(form)
          } catch (error) {
            // the bind ticket expired or was used: only a new WeChat authorisation gives another
            if (!session.wechatBind) setStep({ kind: 'failed', msg: WECHAT_REAUTHORISE })
            throw error
          }
          await finishLogin(session, params.redirect)
        }}
      />
    </View>
  )
}
