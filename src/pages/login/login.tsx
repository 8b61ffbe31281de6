import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Tabs } from '@nutui/nutui-react-taro'
import FormRow from '@/components/FormRow'
import TickBox from '@/components/TickBox'
import PhoneCodeFields, { PhoneRow } from '@/components/PhoneCodeFields'
import { validateMobile, validatePassword, validateSmsCode } from '@/domain/validators'
import { url } from '@/constants/routes'
import { useStores } from '@/stores'
import { toast, toastError } from '@/runtime/feedback'
import ScanLogin from './parts/ScanLogin'
import WechatLogin, { wechatLoginOffered } from './parts/WechatLogin'
import { finishLogin } from '@/runtime/finish-login'
import styles from './login.module.scss'

type Mode = 'code' | 'password' | 'scan'

/** 扫码登录 is for a browser: a phone with the mini-program scans the QR. */
const SCAN_LOGIN = process.env.TARO_ENV === 'h5'

function Login() {
  const { session } = useStores()
  const { params } = useRouter()
  const [mode, setMode] = useState<Mode>('code')
  const [mobilePhone, setMobilePhone] = useState('')
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [agreed, setAgreed] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  // where WeChat can sign a user in (the mini-program, WeChat's browser) that is what most come for:
  // 微信一键登录 first, the phone number's ways under 其他登录方式
  const wechatFirst = wechatLoginOffered()

  const submit = async () => {
    const problem =
      validateMobile(mobilePhone) ??
      (mode === 'code' ? validateSmsCode(code) : validatePassword(password)) ??
      (agreed ? null : '请先阅读并同意《用户协议》和《隐私政策》')
    if (problem) return toast(problem)
    setSubmitting(true)
    try {
      if (mode === 'code') await session.loginWithCode({ mobilePhone, code })
      else await session.loginWithPassword({ mobilePhone, password })
      await finishLogin(session, params.redirect)
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  // one agreement for every way in: under 微信一键登录 where that comes first, else under the form
  const agreement = (
    <View className={styles.agreement}>
      <TickBox checked={agreed} onChange={setAgreed} label="同意协议" />
      <Text onClick={() => setAgreed(!agreed)}>我已阅读并同意</Text>
      <Text
        className={styles.link}
        onClick={() => Taro.navigateTo({ url: url('protocol', { type: 'user' }) })}
      >
        《用户协议》
      </Text>
      <Text>和</Text>
      <Text
        className={styles.link}
        onClick={() => Taro.navigateTo({ url: url('protocol', { type: 'privacy' }) })}
      >
        《隐私政策》
      </Text>
    </View>
  )

  return (
    <View className={styles.page}>
      <View className={styles.brand}>
        <Text className={styles.title}>欢迎使用云手机</Text>
        <Text className={styles.subtitle}>云端安卓手机，随租随用</Text>
      </View>
      {wechatFirst && (
        <>
          <WechatLogin agreed={agreed} redirect={params.redirect} />
          {agreement}
          <View className={styles.otherWays}>其他登录方式</View>
        </>
      )}
      <Tabs value={mode} onChange={(value) => setMode(value as Mode)}>
        <Tabs.TabPane title="验证码登录" value="code" />
        <Tabs.TabPane title="密码登录" value="password" />
        {SCAN_LOGIN && <Tabs.TabPane title="扫码登录" value="scan" />}
      </Tabs>
      {mode === 'scan' ? (
        <ScanLogin redirect={params.redirect} />
      ) : (
        <View className={styles.form}>
          {mode === 'code' ? (
            <PhoneCodeFields
              mobilePhone={mobilePhone}
              onMobilePhoneChange={setMobilePhone}
              smsType="login"
              code={code}
              onCodeChange={setCode}
            />
          ) : (
            <>
              <PhoneRow value={mobilePhone} onChange={setMobilePhone} />
              <FormRow
                label="密码"
                hideLabel
                type="password"
                maxLength={13}
                placeholder="请输入密码"
                value={password}
                onChange={setPassword}
              />
            </>
          )}
          <Button
            type="primary"
            block
            loading={submitting}
            onClick={submit}
            className={styles.submit}
          >
            {mode === 'code' ? '登录 / 注册' : '登录'}
          </Button>
          {mode === 'code' && (
            <View className={styles.hint}>未注册的手机号验证后将自动创建账号</View>
          )}
          {!wechatFirst && agreement}
        </View>
      )}
    </View>
  )
}

export default observer(Login)
