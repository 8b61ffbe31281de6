import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { updateUserPassword } from '@/api/user'
import { url } from '@/constants/routes'
import { goBack, redirect } from '@/runtime/navigation'
import { ResultCode, resultMessages } from '@/domain/result-codes'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import PasswordInput from './parts/password/PasswordInput'
import { checkPasswordForm } from './parts/password/password-rules'
import styles from './parts/password/password-page.module.scss'

const isCode = (error: unknown, code: number) =>
  !!error && typeof error === 'object' && 'code' in error && error.code === code

/** 修改密码: old + new + confirm; the server signs out the account's other devices. */
export default function ChangePassword() {
  const [oldPassword, setOldPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [confirmPassword, setConfirmPassword] = useState('')
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const problem = checkPasswordForm({ oldPassword, newPassword, confirmPassword })
    if (problem) return toast(problem)
    setSubmitting(true)
    try {
      await updateUserPassword(oldPassword, newPassword)
      toastSuccess('密码修改成功')
      goBack()
    } catch (error) {
      if (isCode(error, ResultCode.OLD_PASSWORD_WRONG)) {
        toast(resultMessages[ResultCode.OLD_PASSWORD_WRONG])
      } else if (isCode(error, ResultCode.MUST_SET_PASSWORD)) {
        // no password to change (设置 thought there was): set one here, then back to 设置
        toast(resultMessages[ResultCode.MUST_SET_PASSWORD])
        void redirect('setPassword', { redirect: url('config'), resume: 1 })
      } else {
        toastError(error)
      }
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.page}>
      <PasswordInput
        label="原密码"
        placeholder="请输入原密码"
        value={oldPassword}
        onChange={setOldPassword}
      />
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
      <Text className={styles.hint}>修改成功后，已登录的其他设备需要重新登录</Text>
      <Button type="primary" block loading={submitting} onClick={submit} className={styles.submit}>
        确认修改
      </Button>
    </View>
  )
}
