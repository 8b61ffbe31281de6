import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import { receiveTrialPhone } from '@/api/engagement'
import { navigate, relaunch } from '@/runtime/navigation'
import { toast, toastSuccess } from '@/runtime/feedback'
import EmptyState from '@/components/EmptyState'
import { trialDurationText } from '@/components/NewUserGuide/trial-duration'
import { useLandingAction, usePlayTrialConfig, useShareLanding } from '../parts/use-play-trial'
import CopyLinkButton from '../parts/CopyLinkButton'
import styles from './landing.module.scss'

/** Game-trial landing page (public, shareable): the game, the free trial phone, the download. */
function PlayTrial() {
  const { config, failed } = usePlayTrialConfig()
  const { busy, run, loggedIn } = useLandingAction('playTrial')
  useShareLanding('playTrial', config)

  if (!config) {
    return failed ? <EmptyState title="试玩活动暂时无法打开" description="请稍后再试" /> : null
  }

  const claim = () =>
    run(async () => {
      const outcome = await receiveTrialPhone()
      if (!outcome.ok) return toast(outcome.msg) // the trial phones are gone (1017)
      toastSuccess(`已领取${outcome.data.name}`)
      await relaunch('home')
    })

  const { trial } = config
  return (
    <View className={styles.page}>
      <View className={styles.hero}>
        <Text className={styles.game}>{config.gameName}</Text>
        <Text className={styles.slogan}>用云手机免费试玩，关掉手机也在云端运行</Text>
      </View>
      <View className={styles.card}>
        <Text className={styles.cardTitle}>游戏介绍</Text>
        <Text className={styles.desc}>{config.description}</Text>
        <View className={styles.highlights}>
          {config.highlights.map((h) => (
            <Text key={h} className={styles.highlight}>
              {h}
            </Text>
          ))}
        </View>
      </View>
      <View className={styles.card}>
        <Text className={styles.cardTitle}>试玩云手机</Text>
        {trial.offered ? (
          <>
            <Text className={styles.desc}>
              新用户免费领取一台{trial.goodName}（{trial.configName}）云手机，可使用
              {trialDurationText(trial.minutes)}，每个账号限领一次。
            </Text>
            <Text className={styles.steps}>领取云手机 → 在云手机中下载游戏 → 开始挂机试玩</Text>
          </>
        ) : (
          <Text className={styles.desc}>免费试用名额已发完，您可以购买云手机后下载游戏。</Text>
        )}
      </View>
      <View className={styles.actions}>
        {trial.offered ? (
          <Button type="primary" block loading={busy} onClick={claim}>
            {loggedIn ? '免费领取试玩云机' : '登录领取试玩云机'}
          </Button>
        ) : (
          <Button type="primary" block onClick={() => navigate('create')}>
            购买云手机
          </Button>
        )}
        <Button block fill="outline" onClick={() => navigate('playTrialDownload')}>
          下载游戏
        </Button>
        <CopyLinkButton route="playTrial" />
      </View>
    </View>
  )
}

export default observer(PlayTrial)
