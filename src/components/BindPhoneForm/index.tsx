import { useState } from 'react'
import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { validateMobile, validateSmsCode } from '@/domain/validators'
import PhoneCodeFields from '@/components/PhoneCodeFields'
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
      <PhoneCodeFields
        mobilePhone={mobilePhone}
        onMobilePhoneChange={setMobilePhone}
        smsType={smsType}
        code={code}
        onCodeChange={setCode}
      />
      <Button type="primary" block loading={submitting} onClick={submit} className={styles.submit}>
        {submitText}
      </Button>
    </View>
  )
}
