import Taro, { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import EmptyState from '@/components/EmptyState'
import { ROUTES } from '@/constants/routes'
import styles from './notFound.module.scss'

/** Where an unknown route lands (app onPageNotFound), with a way home. */
export default function NotFound() {
  const { params } = useRouter()
  return (
    <View className={styles.page}>
      <EmptyState
        status="error"
        title="页面不存在"
        description={
          params.path ? `找不到 ${decodeURIComponent(params.path)}` : '您访问的页面不存在或已下线'
        }
      />
      <Button type="primary" block onClick={() => Taro.switchTab({ url: `/${ROUTES.home.path}` })}>
        返回首页
      </Button>
    </View>
  )
}
