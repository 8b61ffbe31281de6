import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { firstUpdateUserPassword } from '@/api/user'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { resumeAfterPasswordSet } from '@/runtime/login-password'
import { finishLogin } from '@/runtime/finish-login'
import PasswordInput from './parts/password/PasswordInput'
import { checkPasswordForm } from './parts/password/password-rules'
import styles from './parts/password/password-page.module.scss'

/**
 * 设置密码 for an account without one: after a code or WeChat login (then on where login was going), or
 * opened by a flow that needs a password (`resume=1`: then back to that page, as it was left).
 */
export default function SetPassword() {
  const { session } = useStores()
  const { params } = useRouter()
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const problem = checkPasswordForm({ newPassword, confirmPassword })
    if (problem) return toast(problem)
    setSubmitting(true)
    try {
      await firstUpdateUserPassword(newPassword)
      session.markPasswordSet()
      session.loadUserInfo().catch(() => undefined)
      toastSuccess('密码设置成功')
      if (params.resume) await resumeAfterPasswordSet(params.redirect)
      else await finishLogin(undefined, params.redirect)
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.page}>
      <Text className={styles.hint}>设置后可使用手机号和密码登录</Text>
      <PasswordInput
        label="新密码"
        placeholder="6-13位字母和数字组合"
        value={newPassword}
        onChange={setNewPassword}
      />
      <PasswordInput
        label="确认密码"
        placeholder="请再次输入新密码"
        value={confirmPassword}
        onChange={setConfirmPassword}
      />
      <Button type="primary" block loading={submitting} onClick={submit} className={styles.submit}>
        确认设置
      </Button>
    </View>
  )
}
