import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { Device, ShareCode } from '@/types/api'
import FormRow from '@/components/FormRow'
import Picture from '@/components/Picture'
import Section from '@/components/Section'
import { confirm, toast, toastError, toastSuccess } from '@/runtime/feedback'
import { formatDateTime, maskPhone } from '@/domain/formatters'
import {
  GRANT_DAYS,
  GRANT_PERMISSION_LABELS,
  GrantPermission,
  type GrantPermissionValue,
} from '@/domain/grants'
import { createShare, grantDevices } from '@/api/grant'
import { checkGrantForm } from './grant-rules'
import styles from '../../device-page.module.scss'

interface GrantFormProps {
  phones: Device[]
  ownMobile: string
  /** after a grant: show the list of my grants */
  onGranted: () => void
}

const PERMISSIONS = [GrantPermission.view, GrantPermission.control] as const

/** 新增授权: to a number (at once) or as a QR code someone scans and accepts (once, within 24 h). */
export default function GrantForm({ phones, ownMobile, onGranted }: GrantFormProps) {
  const [mobile, setMobile] = useState('')
  const [permission, setPermission] = useState<GrantPermissionValue>(GrantPermission.control)
  const [days, setDays] = useState<number>(7)
  const [share, setShare] = useState<ShareCode | null>(null)
  const deviceIds = phones.map((p) => p.deviceId)

  const grant = async () => {
    const problem = checkGrantForm({ deviceCount: phones.length, mobilePhone: mobile, ownMobile })
    if (problem) return toast(problem)
    const sure = await confirm(
      '确认授权',
      `将${phones.length}台云手机授权给 ${maskPhone(mobile.trim())}，${GRANT_PERMISSION_LABELS[permission]}，${days}天？授权期间可随时撤销。`,
    )
    if (!sure) return
    try {
      const result = await grantDevices({ deviceIds, mobilePhone: mobile.trim(), permission, days })
      toastSuccess(`已授权${result.count}台云手机`)
      setMobile('')
      onGranted()
    } catch (error) {
      toastError(error)
    }
  }

  const makeShare = async () => {
    if (phones.length === 0) return toast('请选择要授权的云手机')
    try {
      setShare(await createShare({ deviceIds, permission, days }))
    } catch (error) {
      toastError(error)
    }
  }

  return (
    <View>
      <Section title={`授权的云手机（${phones.length}台）`}>
        {phones.length === 0 && (
          <Text className={styles.text}>
            请在「我的云机」中选择云手机（单台：更多操作 → 授权；多台：多选 → 授权）。
          </Text>
        )}
        {phones.map((phone) => (
          <View key={phone.deviceId} className={styles.row}>
            <Text>{phone.name}</Text>
            <Text className={styles.tag}>{phone.zoneName}</Text>
          </View>
        ))}
      </Section>
      <Section title="授权权限">
        <View className={styles.chips} role="radiogroup" aria-label="授权权限">
          {PERMISSIONS.map((value) => (
            <View
              key={value}
              role="radio"
              aria-checked={value === permission}
              className={value === permission ? styles.chipOn : styles.chip}
              onClick={() => setPermission(value)}
            >
              {GRANT_PERMISSION_LABELS[value]}
            </View>
          ))}
        </View>
        <Text className={styles.text}>
          仅查看：可查看云手机及画面；可控制：还可进入云手机和重启、清理。续费、升级、转移等始终只有机主可以操作。
        </Text>
      </Section>
      <Section title="授权时长">
        <View className={styles.chips} role="radiogroup" aria-label="授权时长">
          {GRANT_DAYS.map((value) => (
            <View
              key={value}
              role="radio"
              aria-checked={value === days}
              className={value === days ? styles.chipOn : styles.chip}
              onClick={() => setDays(value)}
            >
              {value}天
            </View>
          ))}
        </View>
      </Section>
      <Section title="授权给">
        <FormRow
          label="被授权人手机号"
          hideLabel
          plain
          type="tel"
          maxLength={11}
          placeholder="请输入对方的注册手机号"
          value={mobile}
          onChange={setMobile}
        />
      </Section>
      <View className={styles.buttons}>
        <Button type="primary" block disabled={phones.length === 0} onClick={grant}>
          确认授权
        </Button>
        <Button block disabled={phones.length === 0} onClick={makeShare}>
          生成分享二维码
        </Button>
      </View>
      {share && (
        <Section title="扫码接受授权">
          <View className={styles.share}>
            <Picture className={styles.qr} src={share.qrImage} alt="授权分享二维码" />
            <Text className={styles.text}>
              对方在「我的 → 扫一扫」中扫描此码即可接受授权（{GRANT_PERMISSION_LABELS[permission]}，
              {days}天）。二维码 {formatDateTime(share.expiresAt)} 前有效，只能被一个账号接受。
            </Text>
          </View>
        </Section>
      )}
    </View>
  )
}
