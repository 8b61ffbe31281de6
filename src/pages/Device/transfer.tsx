import { useCallback, useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { Device, TransferDirection, TransferRecord } from '@/types/api'
import FormRow from '@/components/FormRow'
import PhoneCodeFields from '@/components/PhoneCodeFields'
import PageTabs from '@/components/PageTabs'
import PagedList from '@/components/PagedList'
import Section from '@/components/Section'
import { confirmDestructive, toast, toastError, toastSuccess } from '@/runtime/feedback'
import {
  askToSetLoginPassword,
  goSetLoginPassword,
  loginPasswordSet,
} from '@/runtime/login-password'
import { remainingText } from '@/domain/device-lifecycle'
import { formatDate, formatDateTime, maskPhone } from '@/domain/formatters'
import { ResultCode } from '@/domain/result-codes'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { loadAll } from '@/runtime/load-all'
import { ApiError } from '@/runtime/api-error'
import { getDevice } from '@/api/device'
import { navigate } from '@/runtime/navigation'
import { listTransfers, transferDevices } from '@/api/transfer'
import { useStores } from '@/stores'
import { checkTransferForm, refusedPhones } from './parts/transfer-rules'
import styles from './device-page.module.scss'

const PASSWORD_REASON = '为保障账号安全，转移云手机前需设置登录密码'

const TABS: { title: string; direction?: TransferDirection }[] = [
  { title: '转移云机' },
  { title: '转出记录', direction: 'out' },
  { title: '转入记录', direction: 'in' },
]

/** Transfer center: move the phones chosen on Home (`deviceIds=1,2`) to another account; history. */
function Transfer() {
  const { params } = useRouter()
  const { session, fleet } = useStores()
  const [deviceIds] = useState(() => parseDeviceIds(params.deviceIds))
  const [phones, setPhones] = useState<Device[]>([])
  const [tab, setTab] = useState(deviceIds.length > 0 ? 0 : 1)
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [refused, setRefused] = useState<ReturnType<typeof refusedPhones>>([])
  const [historyKey, setHistoryKey] = useState(0)
  const [now] = useState(Date.now())

  useLoad(() => {
    // fresh each visit: the own number for the code, and whether a login password is set
    session.loadUserInfo().catch(() => undefined)
    if (deviceIds.length > 0)
      loadAll(deviceIds, getDevice)
        .then(setPhones)
        .catch((error) => void toastError(error))
  })

  // Asked before the form is filled; the server's 1331 below is the same way for a stale answer.
  const needsPassword = loginPasswordSet(session) === false

  const submit = async () => {
    const problem = checkTransferForm({
      deviceCount: phones.length,
      mobilePhone: mobile,
      ownMobile: session.mobilePhone,
      smsCode: code,
    })
    if (problem) return toast(problem)
    const sure = await confirmDestructive(
      '确认转移',
      `将${phones.length}台云手机转移至 ${maskPhone(mobile.trim())}？剩余时长和备份随云手机一并转移，转移后您将无法再使用。`,
    )
    if (!sure) return
    setRefused([])
    try {
      const result = await transferDevices({
        deviceIds: phones.map((p) => p.deviceId),
        mobilePhone: mobile.trim(),
        smsCode: code.trim(),
      })
      toastSuccess(`已转移${result.count}台云手机`)
      setPhones([])
      setCode('')
      void fleet.reload().catch(() => undefined)
      setHistoryKey((k) => k + 1)
      setTab(1)
    } catch (error) {
      if (!(error instanceof ApiError)) return toastError(error)
      if (error.code === ResultCode.MUST_SET_PASSWORD) return askToSetLoginPassword(PASSWORD_REASON)
      if (error.code === ResultCode.CAN_NOT_DO_TRANSFER) setRefused(refusedPhones(error.body))
      toastError(error, '转移失败，请稍后重试') // none over the 1057 dialog
    }
  }

  const loadHistory = useCallback(
    (page: number, rows: number) => listTransfers(TABS[tab].direction ?? 'out', page, rows),
    [tab],
  )

  return (
    <View className={styles.page}>
      <PageTabs titles={TABS.map((t) => t.title)} value={tab} onChange={setTab} />
      {tab === 0 ? (
        <>
          <Section title={`转移的云手机（${phones.length}台）`}>
            {phones.length === 0 && (
              <View>
                <Text className={styles.text}>
                  请在「我的云机」中选择云手机（单台：更多操作 → 转移；多台：多选 → 转移）。
                </Text>
                <Button size="small" onClick={() => void navigate('home')}>
                  去选择云手机
                </Button>
              </View>
            )}
            {phones.map((phone) => (
              <View key={phone.deviceId} className={styles.row}>
                <Text>{phone.name}</Text>
                <Text className={styles.tag}>{remainingText(phone.expireAt, now)}</Text>
              </View>
            ))}
          </Section>
          {refused.length > 0 && (
            <View className={styles.warning} role="alert">
              {refused.map((r) => (
                <Text key={r.deviceId} className={styles.text}>
                  {r.name}：{r.reason}
                </Text>
              ))}
            </View>
          )}
          {needsPassword ? (
            <Section title="请先设置登录密码">
              <Text className={styles.text}>{PASSWORD_REASON}，设置后回到这里继续转移。</Text>
              <Button type="primary" block onClick={() => void goSetLoginPassword()}>
                去设置登录密码
              </Button>
            </Section>
          ) : (
            <>
              <Section title="接收账号">
                <FormRow
                  label="接收方手机号"
                  hideLabel
                  plain
                  type="tel"
                  maxLength={11}
                  placeholder="请输入对方的注册手机号"
                  value={mobile}
                  onChange={setMobile}
                />
              </Section>
              <Section title="身份验证">
                <PhoneCodeFields
                  mobilePhone={session.mobilePhone}
                  smsType="transfer"
                  code={code}
                  onCodeChange={setCode}
                />
              </Section>
              <Text className={styles.text}>
                转移后云手机的剩余时长、所在分组（对方的同名分组）和数据备份一并转给对方，您将无法再使用；对方会收到转入通知。
              </Text>
              <Button type="primary" block disabled={phones.length === 0} onClick={submit}>
                确认转移
              </Button>
            </>
          )}
        </>
      ) : (
        <PagedList<TransferRecord>
          key={`${tab}-${historyKey}`}
          load={loadHistory}
          keyOf={(record) => record.id}
          emptyText={tab === 1 ? '暂无转出记录' : '暂无转入记录'}
          renderItem={(record) => (
            <View className={styles.record}>
              <View className={styles.recordHead}>
                <Text>{record.deviceName}</Text>
                <Text className={styles.tag}>到期 {formatDate(record.expireAt)}</Text>
              </View>
              <Text className={styles.tag}>
                {tab === 1 ? '转给' : '来自'} {record.otherMobile} ·{' '}
                {formatDateTime(record.createdAt)}
              </Text>
            </View>
          )}
        />
      )}
    </View>
  )
}

export default observer(Transfer)
