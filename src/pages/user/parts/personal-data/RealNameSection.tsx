import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button, Cell, Tag } from '@nutui/nutui-react-taro'
import FormRow from '@/components/FormRow'
import { validateIdCard, validateRealName } from '@/domain/validators'
import { maskIdCard } from '@/domain/formatters'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import styles from './personal-data.module.scss'

export interface RealNameSectionProps {
  verified: boolean
  realName: string
  /** already masked by the server; masked again in case a full number ever arrives */
  idCard: string
  onSubmit: (form: { realName: string; idCard: string }) => Promise<unknown>
}

/** 实名认证: the verified identity, or the form to verify it. */
export default function RealNameSection({
  verified,
  realName,
  idCard,
  onSubmit,
}: RealNameSectionProps) {
  const [name, setName] = useState('')
  const [number, setNumber] = useState('')
  const [submitting, setSubmitting] = useState(false)

  if (verified) {
    return (
      <Cell.Group title="实名认证">
        <Cell title="真实姓名" extra={realName} />
        <Cell title="身份证号" extra={maskIdCard(idCard)} />
        <Cell title="认证状态" extra={<Tag type="success">已实名</Tag>} />
      </Cell.Group>
    )
  }

  const submit = async () => {
    const form = { realName: name.trim(), idCard: number.trim().toUpperCase() }
    const problem = validateRealName(form.realName) ?? validateIdCard(form.idCard)
    if (problem) return toast(problem)
    setSubmitting(true)
    try {
      await onSubmit(form)
      toastSuccess('实名认证成功')
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <Cell.Group title="实名认证">
      <View className={styles.form}>
        <Text className={styles.tip}>完成实名认证后可使用云手机的全部功能，信息仅用于身份核验</Text>
        <FormRow
          label="真实姓名"
          maxLength={20}
          placeholder="请输入真实姓名"
          value={name}
          onChange={setName}
        />
        <FormRow
          label="身份证号"
          maxLength={18}
          placeholder="请输入身份证号"
          value={number}
          onChange={setNumber}
        />
        <Button
          type="primary"
          block
          loading={submitting}
          onClick={submit}
          className={styles.submit}
        >
          提交认证
        </Button>
      </View>
    </Cell.Group>
  )
}
