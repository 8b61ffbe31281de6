import Taro from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { GoodsLevel, goodsLevelLabels, goodsLevelThemes } from '@/domain/enums'
import { url } from '@/constants/routes'
import styles from './create.module.scss'

const LEVEL_DESCRIPTIONS: Record<GoodsLevel, string> = {
  1: '日常挂机、轻量应用，性价比之选',
  2: '独享资源，多开办公更流畅',
  3: '高性能配置，大型应用稳定运行',
  4: '顶配性能，专业工作室首选',
  5: '为手游深度优化，高帧率不掉线',
}

/** Create cloud phone: the levels on offer. Online purchase comes with the cloud-phone feature. */
export default function Create() {
  return (
    <View className={styles.page}>
      {Object.values(GoodsLevel).map((level) => {
        const theme = goodsLevelThemes[level]
        return (
          <View
            key={level}
            className={styles.card}
            style={{
              background: `linear-gradient(135deg, ${theme.from}, ${theme.to})`,
              color: theme.text,
            }}
          >
            <Text className={styles.level}>{goodsLevelLabels[level]}</Text>
            <Text className={styles.desc}>{LEVEL_DESCRIPTIONS[level]}</Text>
          </View>
        )
      })}
      <View className={styles.footer}>
        <Text>需要开通云手机？客服可为您推荐配置并办理开通</Text>
        <Button
          type="primary"
          block
          onClick={() => Taro.navigateTo({ url: url('customerService') })}
        >
          联系客服开通
        </Button>
      </View>
    </View>
  )
}
