import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { useStores } from '@/stores'
import { listActivities } from '@/api/activity'
import { getPlayTrialConfig } from '@/api/engagement'
import { navigate } from '@/runtime/navigation'
import NewUserGuide from '.'
import styles from './HomeEngagement.module.scss'

/** Where the floating entry leads: the one activity, the activity list, or the game trial. */
type BallTarget = { kind: 'activity'; id?: number } | { kind: 'game'; name: string }

/**
 * What Home adds for engagement: the new-user guide, and — when the account's openActivityBall is 1
 * — a small floating entry to the current activity (webView/activity: the one running, or the list
 * when there are several). With no activity it opens the game trial (landing/play-trial/index) when
 * the server has one, and shows nothing otherwise.
 */
function HomeEngagement({ active }: { active: boolean }) {
  const { session } = useStores()
  const [target, setTarget] = useState<BallTarget | null>(null)
  const wantsBall = session.isLoggedIn && session.openActivityBall === 1

  useEffect(() => {
    // a restored session knows openActivityBall only once the user info is loaded
    if (session.isLoggedIn && !session.userInfo)
      session.loadUserInfo({ quiet: true }).catch(() => {})
  }, [session])

  useEffect(() => {
    if (!wantsBall) return
    let cancelled = false
    const find = async (): Promise<BallTarget | null> => {
      const found = await listActivities({ loading: false }).catch(() => [])
      if (found.length > 0) {
        return { kind: 'activity', id: found.length === 1 ? found[0].id : undefined }
      }
      const game = await getPlayTrialConfig({ loading: false }).catch(() => null)
      return game ? { kind: 'game', name: game.gameName } : null
    }
    void find().then((t) => !cancelled && setTarget(t))
    return () => {
      cancelled = true
    }
  }, [wantsBall])

  return (
    <>
      <NewUserGuide active={active} />
      {active && wantsBall && target?.kind === 'activity' && (
        <View
          className={styles.ball}
          role="button"
          aria-label="限时活动"
          onClick={() => navigate('activity', target.id ? { id: target.id } : undefined)}
        >
          <Text className={styles.label}>限时</Text>
          <Text className={styles.label}>活动</Text>
        </View>
      )}
      {active && wantsBall && target?.kind === 'game' && (
        <View
          className={styles.ball}
          role="button"
          aria-label={`免费试玩${target.name}`}
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
