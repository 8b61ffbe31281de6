import { View, Text } from '@tarojs/components'
import type { SmsType } from '@/api/user'
import { maskPhone } from '@/domain/formatters'
import { DEFAULT_SMS_CODE_LENGTH } from '@/domain/validators'
import FormRow from '@/components/FormRow'
import SmsCodeButton from '@/components/SmsCodeButton'
import { sendCodeWithFeedback } from '@/components/SmsCodeButton/send-code'
import styles from './index.module.scss'

export interface PhoneRowProps {
  value: string
  onChange: (mobilePhone: string) => void
}

/** The 手机号 row: the number typed in, its placeholder saying what goes in. */
export function PhoneRow({ value, onChange }: PhoneRowProps) {
  return (
    <FormRow
      label="手机号"
      hideLabel
      type="tel"
      maxLength={11}
      placeholder="请输入手机号"
      value={value}
      onChange={onChange}
    />
  )
}

export interface PhoneCodeFieldsProps {
  /** The number the code is sent to. */
  mobilePhone: string
  /**
   * Given: the number is typed into a 手机号 row above the code (login, binding a number). Absent: the code
   * goes to the signed-in account's own number, shown masked (the server sends to the caller's number
   * anyway), and the send button waits until that number is known.
   */
  onMobilePhoneChange?: (mobilePhone: string) => void
  smsType: SmsType
  code: string
  onCodeChange: (code: string) => void
}

/** A number and the SMS code sent to it: the 验证码 row with its send button and 60 s countdown. */
export default function PhoneCodeFields({
  mobilePhone,
  onMobilePhoneChange,
  smsType,
  code,
  onCodeChange,
}: PhoneCodeFieldsProps) {
  const ownNumber = !onMobilePhoneChange
  const codeRow = (
    <FormRow
      label="验证码"
      hideLabel
      type="number"
      maxLength={DEFAULT_SMS_CODE_LENGTH}
      placeholder="请输入验证码"
      value={code}
      onChange={onCodeChange}
    >
      <SmsCodeButton
        onSend={() => sendCodeWithFeedback(mobilePhone, smsType)}
        disabled={ownNumber && !mobilePhone}
      />
    </FormRow>
  )

  if (ownNumber) {
    return (
      <View>
        <Text className={styles.to}>验证码将发送至 {maskPhone(mobilePhone)}</Text>
        {codeRow}
      </View>
    )
  }
  return (
    <>
      <PhoneRow value={mobilePhone} onChange={onMobilePhoneChange} />
      {codeRow}
    </>
  )
}
