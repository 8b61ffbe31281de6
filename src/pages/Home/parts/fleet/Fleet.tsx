import { useEffect, useState } from 'react'
import { View } from '@tarojs/components'
import { KEYBOARD_SCROLLABLE } from '@/platform/a11y'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { Device } from '@/types/api'
import EmptyState from '@/components/EmptyState'
import RetryButton from '@/components/RetryButton'
import { useFollow } from '@/hooks/use-follow'
import { BottomSheet } from '@/components/Overlay'
import { LIST_TEXTS } from '@/constants/limits'
import {
  ACTION_LABELS,
  actionInput,
  deviceActions,
  type DeviceAction,
} from '@/domain/device-permissions'
import { HomeViewType } from '@/domain/enums'
import { navigate } from '@/runtime/navigation'
import { useStores } from '@/stores'
import { fleetNotice } from '@/domain/flux'
import { flux } from '@/stores/flux-store'
import BatchBar from './BatchBar'
import FleetToolbar from './FleetToolbar'
import MultiView from './MultiView'
import PromptDialog, { type PromptRequest } from '@/components/PromptDialog'
import SingleView from './SingleView'
import { availableActions } from './action-routes'
import { fleetQuery } from '@/domain/fleet-query'
import { useCovers } from './use-covers'
import { useDeviceActions } from './use-device-actions'
import styles from './fleet.module.scss'

/** How often the remaining-time clock moves on. */
const TICK_MS = 3_000

/** The logged-in fleet: toolbar, single or multi view, multi-select, prompts. */
function Fleet({ active }: { active: boolean }) {
  const { fleet, session } = useStores()
  const covers = useCovers()
  const [now, setNow] = useState(() => Date.now())
  const [prompt, setPrompt] = useState<PromptRequest | null>(null)
  const [sheetFor, setSheetFor] = useState<Device | null>(null)

  const run = useDeviceActions({
    prompt: setPrompt,
    onPatched: fleet.patch,
    refreshCover: covers.refresh,
  })

  useEffect(() => covers.setPaused(!active), [covers, active])

  // the server's changes while shown: an order paid and not yet delivered, phones creating or busy
  const notice = fleetNotice(
    useFollow('fleet', fleet.refresh, { pending: fleet.transientIds.length > 0, enabled: active }),
  )
  // another account (or logged out): its state is not followed
  useEffect(() => flux.reset, [session.token])

  useEffect(() => {
    if (!active) return undefined
    const timer = setInterval(() => setNow(Date.now()), TICK_MS)
    return () => clearInterval(timer)
  }, [active])

  const sheetActions = sheetFor ? availableActions(deviceActions(actionInput(sheetFor))) : []

  const onAction = (action: DeviceAction, device: Device) => void run(action, device)
  const filtered = Object.keys(fleetQuery(fleet.filters)).length > 0

  let body
  if (!fleet.loaded && fleet.status === 'error') {
    body = (
      <View className={styles.centre} role="alert">
        <View>{fleet.error || LIST_TEXTS.error}</View>
        <RetryButton code={fleet.errorCode} onRetry={fleet.reload} />
      </View>
    )
  } else if (!fleet.loaded) {
    body = <View className={styles.centre}>{LIST_TEXTS.loading}</View>
  } else if (fleet.devices.length === 0 && notice) {
    body = null
  } else if (fleet.devices.length === 0) {
    body = filtered ? (
      <EmptyState description="没有符合条件的云手机" />
    ) : (
      <View className={styles.centre}>
        <EmptyState
          title="您还没有云手机"
          description={
            // two lines that break at the comma, never inside a word such as 重启 (at 320 px too)
            <>
              <View>购买后，云手机会出现在这里</View>
              <View>可随时进入、重启和续费</View>
            </>
          }
        />
        <Button type="primary" block onClick={() => void navigate('create')}>
          去创建云机
        </Button>
      </View>
    )
  } else if (fleet.viewType === HomeViewType.multi) {
    body = (
      <MultiView
        // the dense mode's rows are of another height: it starts at the top
        key={fleet.dense ? 'dense' : 'grid'}
        covers={covers}
        now={now}
        onTap={(device) =>
          fleet.selecting ? fleet.toggleSelected(device.deviceId) : setSheetFor(device)
        }
      />
    )
  } else {
    body = <SingleView covers={covers} now={now} onAction={onAction} />
  }

  return (
    <View className={styles.fleet}>
      <FleetToolbar />
      <View className={styles.fleetBody} {...KEYBOARD_SCROLLABLE}>
        {notice && fleet.loaded && (
          <View className={styles.notice} role="status">
            {notice}
          </View>
        )}
        {body}
      </View>
      {fleet.selecting && fleet.viewType === HomeViewType.multi && <BatchBar />}
      <BottomSheet
        visible={sheetFor !== null}
        title={sheetFor?.name}
        options={sheetActions.map((a) => ACTION_LABELS[a])}
        onCancel={() => setSheetFor(null)}
        onSelect={(index) => {
          const device = sheetFor
          setSheetFor(null)
          if (device) onAction(sheetActions[index], device)
        }}
      />
      <PromptDialog request={prompt} onClose={() => setPrompt(null)} />
    </View>
  )
}

export default observer(Fleet)
