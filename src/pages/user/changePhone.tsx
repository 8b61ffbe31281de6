import { useState } from 'react'
import { useLoad } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Steps, Step } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { changeBindingMobile, checkOldMobile } from '@/api/user'
import { goBack } from '@/runtime/navigation'
import { validateSmsCode } from '@/domain/validators'
import BindPhoneForm from '@/components/BindPhoneForm'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import PhoneCodeFields from '@/components/PhoneCodeFields'
import styles from './changePhone.module.scss'

/** 更换手机号: prove the current number (changeOld → ticket), then bind the new one (changeNew). */
function ChangePhone() {
  const { session } = useStores()
  const [code, setCode] = useState('')

  useLoad(() => {
    if (!session.mobilePhone) session.loadUserInfo().catch(() => undefined)
  })
  const [ticket, setTicket] = useState<string>()
  const [checking, setChecking] = useState(false)

  const verifyOld = async () => {
    const problem = validateSmsCode(code)
    if (problem) return toast(problem)
    setChecking(true)
    try {
      const result = await checkOldMobile(code)
      setTicket(result.ticket)
    } catch (error) {
      toastError(error)
    } finally {
      setChecking(false)
    }
  }

  const bindNew = async ({ mobilePhone, code: newCode }: { mobilePhone: string; code: string }) => {
    if (!ticket) return
    if (mobilePhone === session.mobilePhone) return toast('新手机号不能与当前手机号相同')
    await changeBindingMobile({ ticket, mobilePhone, code: newCode })
    await session.loadUserInfo().catch(() => undefined)
    toastSuccess('手机号已更换')
    goBack()
  }

  return (
    <View className={styles.page}>
      <Steps value={ticket ? 2 : 1}>
        <Step value={1} title="验证当前手机号" />
        <Step value={2} title="绑定新手机号" />
      </Steps>
      {ticket ? (
        <View className={styles.body}>
          <Text className={styles.tip}>请输入新手机号，更换后请使用新手机号登录</Text>
          <BindPhoneForm submitText="确认更换" smsType="changeNew" onSubmit={bindNew} />
        </View>
      ) : (
        <View className={styles.body}>
          <PhoneCodeFields
            mobilePhone={session.mobilePhone}
            smsType="changeOld"
            code={code}
            onCodeChange={setCode}
          />
          <Button
            type="primary"
            block
            loading={checking}
            onClick={verifyOld}
            className={styles.submit}
          >
            下一步
          </Button>
        </View>
      )}
    </View>
  )
}

export default observer(ChangePhone)
