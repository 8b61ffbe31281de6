import { useState } from 'react'
import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { DEFAULT_SMS_CODE_LENGTH, validateMobile, validateSmsCode } from '@/domain/validators'
import FormRow from '@/components/FormRow'
import SmsCodeButton from '@/components/SmsCodeButton'
import { sendCodeWithFeedback } from '@/components/SmsCodeButton/send-code'
import { toast, toastError } from '@/runtime/feedback'
import styles from './index.module.scss'

export interface BindPhoneFormProps {
  submitText: string
  /** SMS code type sent to the number */
  smsType: 'login' | 'changeNew'
  onSubmit: (values: { mobilePhone: string; code: string }) => Promise<unknown>
}

/** Mobile number + SMS code form, used to bind a WeChat identity and to bind a new number. */
export default function BindPhoneForm({ submitText, smsType, onSubmit }: BindPhoneFormProps) {
  const [mobilePhone, setMobilePhone] = useState('')
  const [code, setCode] = useState('')
  const [submitting, setSubmitting] = useState(false)

  const requestCode = () => sendCodeWithFeedback(mobilePhone, smsType)

  const submit = async () => {
    const problem = validateMobile(mobilePhone) ?? validateSmsCode(code)
    if (problem) return toast(problem)
    setSubmitting(true)
    try {
      await onSubmit({ mobilePhone, code })
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.form}>
      <FormRow
        label="手机号"
        hideLabel
        type="tel"
        maxLength={11}
        placeholder="请输入手机号"
        value={mobilePhone}
        onChange={setMobilePhone}
      />
      <FormRow
        label="验证码"
        hideLabel
        type="number"
        maxLength={DEFAULT_SMS_CODE_LENGTH}
        placeholder="请输入验证码"
        value={code}
        onChange={setCode}
      >
        <SmsCodeButton onSend={requestCode} />
      </FormRow>
      <Button type="primary" block loading={submitting} onClick={submit} className={styles.submit}>
        {submitText}
      </Button>
    </View>
  )
}
