import { useState } from 'react'
import Taro, { useLoad } from '@tarojs/taro'
import { View, Text, Button as TaroButton } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { getCustomerServiceUrl } from '@/api/common'
import { toastError } from '@/runtime/feedback'
import type { CustomerServiceInfo } from '@/types/api'
import styles from '../index.module.scss'

/** Hotline with 拨打, and online service: WeChat's own in the mini-program, the configured URL on H5. */
export default function ContactCard() {
  const [info, setInfo] = useState<CustomerServiceInfo>()

  useLoad(() => {
    getCustomerServiceUrl().then(setInfo).catch(toastError)
  })

  const call = () => {
    if (info?.phone) Taro.makePhoneCall({ phoneNumber: info.phone }).catch(() => undefined)
  }

  return (
    <View className={styles.card}>
      <View className={styles.hotline}>
        <View className={styles.hotlineText}>
          <Text className={styles.cardTitle}>客服热线</Text>
          <Text className={styles.phone}>{info?.phone ?? '加载中'}</Text>
          {info?.hours && <Text className={styles.muted}>服务时间：{info.hours}</Text>}
        </View>
        <Button
          type="primary"
          size="small"
          disabled={!info?.phone}
          onClick={call}
          aria-label="拨打客服热线"
        >
          拨打
        </Button>
      </View>
      {process.env.TARO_ENV === 'weapp' ? (
        <TaroButton className={styles.online} openType="contact">
          在线客服
        </TaroButton>
      ) : (
        info?.url && (
          <Button
            block
            fill="outline"
            type="primary"
            onClick={() => window.open(info.url!, '_blank')}
          >
            在线客服
          </Button>
        )
      )}
    </View>
  )
}
