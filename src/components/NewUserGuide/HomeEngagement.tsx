import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { useStores } from '@/stores'
import { getPlayTrialConfig } from '@/services/engagement'
import { navigate } from '@/services/navigation'
import NewUserGuide from '.'
import styles from './HomeEngagement.module.scss'

/**
 * What Home adds for engagement: the new-user guide, and — when the account's openActivityBall is 1
 * — a small floating entry to the current activity. Until activities exist (issue 5, later), the
 * current activity is the game trial, so the entry opens landing/play-trial/index; it shows only
 * when the server has a game trial to show.
 */
function HomeEngagement({ active }: { active: boolean }) {
  const { session } = useStores()
  const [game, setGame] = useState<string | null>(null)
  const wantsBall = session.isLoggedIn && session.openActivityBall === 1

  useEffect(() => {
    if (!wantsBall) return
    let cancelled = false
    getPlayTrialConfig({ loading: false })
      .then((config) => !cancelled && setGame(config.gameName))
      .catch(() => !cancelled && setGame(null))
    return () => {
      cancelled = true
    }
  }, [wantsBall])

  return (
    <>
      <NewUserGuide active={active} />
      {active && wantsBall && game && (
        <View
          className={styles.ball}
          role="button"
          aria-label={`活动：免费试玩${game}`}
          onClick={() => navigate('playTrial')}
        >
          <Text className={styles.label}>免费</Text>
          <Text className={styles.label}>试玩</Text>
        </View>
      )}
    </>
  )
}

export default observer(HomeEngagement)
