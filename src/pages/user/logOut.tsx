import { useState } from 'react'
import Taro, { useLoad } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import TickBox from '@/components/TickBox'
import { useStores } from '@/stores'
import { logoutUser } from '@/api/user'
import { url } from '@/constants/routes'
import { confirmDestructive, toast, toastError, toastSuccess } from '@/runtime/feedback'
import PhoneCodeFields from '@/components/PhoneCodeFields'
import { DELETION_AGREE_TEXT, DELETION_CONSEQUENCES, checkDeletionRequest } from './parts/deletion'
import styles from './logOut.module.scss'

/** 注销账号: read what is lost, tick the box, prove the number, confirm once more. */
function LogOut() {
  const { session } = useStores()
  const [agreed, setAgreed] = useState(false)
  const [code, setCode] = useState('')

  useLoad(() => {
    if (!session.mobilePhone) session.loadUserInfo().catch(() => undefined)
  })
  const [submitting, setSubmitting] = useState(false)

  const submit = async () => {
    const problem = checkDeletionRequest(agreed, code)
    if (problem) return toast(problem)
    const ok = await confirmDestructive(
      '确认注销',
      '注销后账号及其全部数据将被永久清除且不可恢复，确定注销吗？',
      '确认注销',
    )
    if (!ok) return
    setSubmitting(true)
    try {
      const userId = session.userId
      await logoutUser(code)
      // the server revoked every token: forget it locally without calling exitLogin
      if (userId !== null) session.removeAccount(userId)
      session.clear()
      Taro.reLaunch({ url: url('home'), success: () => void toastSuccess('账号已注销') })
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <Text className={styles.title}>注销须知</Text>
        <Text className={styles.lead}>账号注销后将无法恢复，请在注销前确认：</Text>
        {DELETION_CONSEQUENCES.map((item, index) => (
          <Text key={item} className={styles.item}>
            {index + 1}. {item}
          </Text>
        ))}
      </View>
      <View className={styles.card}>
        <PhoneCodeFields
          mobilePhone={session.mobilePhone}
          smsType="deleteAccount"
          code={code}
          onCodeChange={setCode}
        />
      </View>
      <View className={styles.agree}>
        <TickBox checked={agreed} onChange={setAgreed} label={DELETION_AGREE_TEXT} />
        <Text onClick={() => setAgreed(!agreed)}>{DELETION_AGREE_TEXT}</Text>
      </View>
      <Button type="danger" block loading={submitting} onClick={submit}>
        申请注销
      </Button>
    </View>
  )
}

export default observer(LogOut)
