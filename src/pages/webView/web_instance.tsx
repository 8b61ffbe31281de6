import { createElement, useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View, Text, WebView } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import NavBar from '@/components/NavBar'
import { toast } from '@/runtime/feedback'
import { errorMessage } from '@/runtime/api-error'
import { getAuthToken } from '@/api/device'
import { goBack } from '@/runtime/navigation'
import { fileUrl } from '@/runtime/request'
import { useStores } from '@/stores'
import { USER_INFO_FAILED, controlPageUrl } from './parts/control-url'
import styles from './web_instance.module.scss'

/**
 * A phone's control page: a one-time token from /user/getAuthToken handed to the supplier's page.
 * The mini-program shows it in a WebView; H5 in a full-screen iframe under our own bar.
 */
function WebInstance() {
  const { session } = useStores()
  const { params } = useRouter()
  const deviceId = Number(params.deviceId)
  const [src, setSrc] = useState('')
  const [problem, setProblem] = useState('')

  const open = async () => {
    setProblem('')
    if (!Number.isInteger(deviceId) || deviceId <= 0) {
      setProblem('云手机不存在')
      return
    }
    try {
      if (!session.userInfo) await session.loadUserInfo()
    } catch {
      toast(USER_INFO_FAILED)
      setProblem(USER_INFO_FAILED)
      return
    }
    try {
      const auth = await getAuthToken(deviceId)
      const userId = session.userId ?? session.userInfo?.userId ?? ''
      setSrc(controlPageUrl(fileUrl(auth.controlUrl), { token: auth.authToken, userId }))
    } catch (error) {
      setProblem(errorMessage(error))
    }
  }

  useLoad(() => void open())

  if (process.env.TARO_ENV === 'weapp' && src) return <WebView src={src} />

  return (
    <View className={styles.page}>
      <NavBar
        title="云手机"
        right={
          <View className={styles.back} role="button" onClick={() => void goBack()}>
            ‹ 返回
          </View>
        }
      />
      {src ? (
        // a plain iframe: Taro's H5 WebView adds its own navigation handling we do not want here
        createElement('iframe', {
          className: styles.frame,
          src,
          title: '云手机控制台',
          allow: 'clipboard-read; clipboard-write; fullscreen',
        })
      ) : (
        <View className={styles.message} role={problem ? 'alert' : undefined}>
          <Text>{problem || '正在连接云手机…'}</Text>
          {problem && (
            <Button size="small" onClick={() => void open()}>
              重试
            </Button>
          )}
        </View>
      )}
    </View>
  )
}

export default observer(WebInstance)
