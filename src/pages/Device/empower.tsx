import { useState } from 'react'
import { useLoad, useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import type { Device } from '@/types/api'
import PageTabs from '@/components/PageTabs'
import { toastError } from '@/runtime/feedback'
import { parseDeviceIds } from '@/domain/fleet-selection'
import { loadAll } from '@/runtime/load-all'
import { getDevice } from '@/api/device'
import { useStores } from '@/stores'
import GrantForm from './parts/empower/GrantForm'
import GrantList from './parts/empower/GrantList'
import styles from './device-page.module.scss'

const TABS = ['新增授权', '我授权的', '授权给我的'] as const

/**
 * Authorisation center: authorise the phones chosen on Home (`deviceIds=1,2`) to another account, see
 * and revoke what I authorised, see what others authorised to me.
 */
function Empower() {
  const { params } = useRouter()
  const { session } = useStores()
  const [deviceIds] = useState(() => parseDeviceIds(params.deviceIds))
  const [phones, setPhones] = useState<Device[]>([])
  const [tab, setTab] = useState(deviceIds.length > 0 ? 0 : 1)

  useLoad(() => {
    if (!session.mobilePhone) session.loadUserInfo().catch(() => undefined)
    if (deviceIds.length > 0) loadAll(deviceIds, getDevice).then(setPhones).catch(toastError)
  })

  return (
    <View className={styles.page}>
      <PageTabs titles={TABS} value={tab} onChange={setTab} />
      {tab === 0 && (
        <GrantForm phones={phones} ownMobile={session.mobilePhone} onGranted={() => setTab(1)} />
      )}
      {tab === 1 && <GrantList direction="out" />}
      {tab === 2 && <GrantList direction="in" />}
    </View>
  )
}

export default observer(Empower)
