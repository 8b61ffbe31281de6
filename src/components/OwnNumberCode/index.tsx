import { View, Text } from '@tarojs/components'
import { maskPhone } from '@/domain/formatters'
import { DEFAULT_SMS_CODE_LENGTH } from '@/domain/validators'
import FormRow from '@/components/FormRow'
import SmsCodeButton from '@/components/SmsCodeButton'
import { sendCodeWithFeedback } from '@/components/SmsCodeButton/send-code'
import styles from './index.module.scss'

export interface OwnNumberCodeProps {
  /** the account's own number (shown masked; the server sends to the caller's number anyway) */
  mobilePhone: string
  smsType: 'changeOld' | 'deleteAccount' | 'transfer'
  code: string
  onChange: (code: string) => void
}

/** A verification code sent to the logged-in account's own number. */
export default function OwnNumberCode({
  mobilePhone,
  smsType,
  code,
  onChange,
}: OwnNumberCodeProps) {
  const send = () => sendCodeWithFeedback(mobilePhone, smsType)

  return (
    <View>
      <Text className={styles.to}>验证码将发送至 {maskPhone(mobilePhone)}</Text>
      <FormRow
        label="验证码"
        hideLabel
        type="number"
        maxLength={DEFAULT_SMS_CODE_LENGTH}
        placeholder="请输入验证码"
        value={code}
        onChange={onChange}
      >
        <SmsCodeButton onSend={send} disabled={!mobilePhone} />
      </FormRow>
    </View>
  )
}
