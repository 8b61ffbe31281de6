import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import emptyImage from '@/assets/tab/home.png'
import Picture from '@/components/Picture'
import PrimaryButton from '@/components/PrimaryButton'
import { url } from '@/constants/routes'
import styles from '../index.module.scss'

/**
 * What a visitor who is not signed in sees: an invitation to log in, drawn like NutUI's Empty and
 * Button without them. This is the H5 first route, and NutUI's Empty brings its Button, Taro's button
 * element, icons and their stylesheets: 6.5 KiB gzip of the 150 KiB budget (docs/performance.md).
 */
export default function SignedOutHome() {
  return (
    <View className={styles.body}>
      <View className={styles.invitation}>
        <Picture alt="" src={emptyImage} className={styles.picture} />
        <Text className={styles.title}>登录后查看您的云手机</Text>
        <Text className={styles.description}>云端安卓手机，24小时在线，随时随地使用</Text>
      </View>
      <PrimaryButton
        onClick={() => Taro.navigateTo({ url: url('login', { redirect: url('home') }) })}
      >
        登录 / 注册
      </PrimaryButton>
      <Text className={styles.tip}>未注册的手机号验证后将自动创建账号</Text>
    </View>
  )
}
