import { useEffect, useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import Picture from '@/components/Picture'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import { CentredPanel } from '@/components/Overlay'
import { Gift, Phone, Setting } from '@nutui/icons-react-taro'
import { useStores } from '@/stores'
import { taroStorage } from '@/platform/shared'
import { getNewUserGuideConfig, receiveTrialPhone } from '@/api/engagement'
import { fileUrl } from '@/runtime/request'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { trialDurationText } from './trial-duration'
import type { NewUserGuideConfig } from '@/types/api'
import styles from './index.module.scss'

/** Bundled illustrations a guide step may name; anything else is a server file. */
const BUNDLED: Record<string, ReactNode> = {
  'guide-welcome': <Phone size={56} color="#2F5FE8" />,
  'guide-control': <Setting size={56} color="#6A45F0" />,
  'guide-trial': <Gift size={56} color="#B34D00" />,
}

export const guideShownKey = (userId: number) => `newUserGuideShown:${userId}`

/**
 * The new-user guide, once per account on this device, after its first login, when the hosting page
 * is on screen (`active`): the configured steps, and on the last one 免费领取试用云机 when the trial
 * phone is offered.
 */
function NewUserGuide({ active = true }: { active?: boolean }) {
  const { session, fleet } = useStores()
  const [config, setConfig] = useState<NewUserGuideConfig | null>(null)
  const [step, setStep] = useState(0)
  const [claiming, setClaiming] = useState(false)
  const userId = session.userId

  useEffect(() => {
    if (!active || !session.isLoggedIn || session.firstLogin !== 1 || userId === null) return
    if (taroStorage.get(guideShownKey(userId))) return
    let cancelled = false
    getNewUserGuideConfig()
      .then((loaded) => {
        if (cancelled || loaded.steps.length === 0) return
        taroStorage.set(guideShownKey(userId), 1)
        setStep(0)
        setConfig(loaded)
      })
      .catch(() => undefined) // the guide is a welcome, never an error
    return () => {
      cancelled = true
    }
  }, [active, session.isLoggedIn, session.firstLogin, userId])

  if (!config) return null
  const close = () => setConfig(null)
  const current = config.steps[step]
  const last = step === config.steps.length - 1
  const offer = config.trialOffer

  const claim = async () => {
    setClaiming(true)
    try {
      const outcome = await receiveTrialPhone()
      if (!outcome.ok) {
        toast(outcome.msg) // the trial phones are gone (1017)
        return
      }
      toastSuccess(`已领取${outcome.data.name}`)
      close()
      void fleet.reload()
    } catch (error) {
      toastError(error)
    } finally {
      setClaiming(false)
    }
  }

  return (
    <CentredPanel label="新手指引" closeable onClose={close}>
      <View className={styles.guide}>
        <View className={styles.art}>
          {BUNDLED[current.image] ?? (
            <Picture
              className={styles.image}
              src={fileUrl(current.image)}
              mode="aspectFit"
              alt={current.title}
            />
          )}
        </View>
        <Text className={styles.title}>{current.title}</Text>
        <Text className={styles.text}>{current.text}</Text>
        <View className={styles.dots}>
          {config.steps.map((s, i) => (
            <View key={s.id} className={i === step ? styles.dotOn : styles.dot} />
          ))}
        </View>
        {last && offer.enabled && (
          <Text className={styles.offer}>
            {offer.goodName} · 免费使用{trialDurationText(offer.minutes)}
          </Text>
        )}
        <View className={styles.actions}>
          {!last && (
            <>
              <Button fill="outline" onClick={close}>
                跳过
              </Button>
              <Button type="primary" onClick={() => setStep(step + 1)}>
                下一步
              </Button>
            </>
          )}
          {last && offer.enabled && (
            <Button type="primary" block loading={claiming} onClick={claim}>
              免费领取试用云机
            </Button>
          )}
          {last && !offer.enabled && (
            <Button type="primary" block onClick={close}>
              开始使用
            </Button>
          )}
        </View>
      </View>
    </CentredPanel>
  )
}

export default observer(NewUserGuide)
