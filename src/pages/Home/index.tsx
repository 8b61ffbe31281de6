import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import NavBar from '@/components/NavBar'
import { useStores } from '@/stores'
import SignedInHome from './parts/LoadSignedInHome'
import SignedOutHome from './parts/SignedOutHome'
import styles from './index.module.scss'

/** My cloud phones: the fleet when logged in, an invitation to log in otherwise. */
function Home() {
  const { session, fleet } = useStores()
  const [shown, setShown] = useState(true)

  const load = () => {
    if (!session.isLoggedIn) return
    void fleet.reload()
    fleet.loadGroups().catch(() => undefined) // the filter then offers 全部/未分组 only
    fleet.loadStatusList().catch(() => undefined) // statuses then show our own labels
  }

  useDidShow(() => {
    setShown(true)
    load()
  })
  useDidHide(() => setShown(false))

  // another account's phones must never show, not even for a moment
  const token = useRef(session.token)
  useEffect(() => {
    if (token.current === session.token) return
    token.current = session.token
    fleet.reset()
    if (shown) load()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session.token])

  return (
    <View className={styles.page}>
      <NavBar title="我的云机" />
      {session.isLoggedIn ? <SignedInHome active={shown} /> : <SignedOutHome />}
    </View>
  )
}

export default observer(Home)
