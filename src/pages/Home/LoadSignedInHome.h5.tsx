import { Component, lazy, Suspense, useMemo, useState, type ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { LOADING_TEXT } from '@/constants/limits'
import { isLoadFailure, PAGE_LOAD_FAILED_MESSAGE } from '@/services/page-loading'
import styles from './index.module.scss'

/**
 * H5: the fleet and everything it needs (toolbar, batch bar, dialogs, NutUI's SearchBar and icons)
 * is a chunk of its own, fetched when a signed-in Home renders — in parallel with the fleet's first
 * request, which Home starts at the same time. A visitor who is not signed in never downloads it, so
 * the first route stays small (docs/performance.md, "Package size").
 */
const load = () => import(/* webpackChunkName: "home-signed-in" */ './SignedInHome')

/** Shows a retry when the chunk could not be fetched; any other error is not ours to handle. */
class ChunkFailure extends Component<{ retry(): void; children: ReactNode }, { error?: unknown }> {
  state: { error?: unknown } = {}

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  render() {
    const { error } = this.state
    if (error === undefined) return this.props.children
    if (!isLoadFailure(error)) throw error
    return (
      <View className={styles.body}>
        <Text className={styles.tip}>{PAGE_LOAD_FAILED_MESSAGE}</Text>
        <Button type="primary" block onClick={this.props.retry}>
          重试
        </Button>
      </View>
    )
  }
}

export default function LoadSignedInHome({ active }: { active: boolean }) {
  const [attempt, setAttempt] = useState(0)
  // React.lazy keeps a failed import; a retry needs a new one (webpack fetches the chunk again)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const SignedInHome = useMemo(() => lazy(load), [attempt])
  return (
    <ChunkFailure key={attempt} retry={() => setAttempt(attempt + 1)}>
      <Suspense
        fallback={
          <View className={styles.body} role="status">
            <Text className={styles.tip}>{LOADING_TEXT}</Text>
          </View>
        }
      >
        <SignedInHome active={active} />
      </Suspense>
    </ChunkFailure>
  )
}
