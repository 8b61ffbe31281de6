import { Component, lazy, Suspense } from 'react'
import { View, Text } from '@tarojs/components'
import { LOADING_TEXT } from '@/constants/limits'
import PrimaryButton from '@/components/PrimaryButton'
import { isLoadFailure, PAGE_LOAD_FAILED_MESSAGE } from '@/runtime/page-loading'
import styles from '../index.module.scss'

/**
 * H5: the fleet and everything it needs (toolbar, batch bar, dialogs, NutUI's SearchBar and icons)
 * is a chunk of its own, fetched when a signed-in Home renders — in parallel with the fleet's first
 * request, which Home starts at the same time. A visitor who is not signed in never downloads it, so
 * the first route stays small (docs/performance.md, "Package size").
 */
const load = () => import(/* webpackChunkName: "home-signed-in" */ './SignedInHome')

/**
 * Loads the signed-in part, saying 加载中 meanwhile, and offers 重试 when its chunk could not be
 * fetched; any other error is not ours to handle.
 */
export default class LoadSignedInHome extends Component<{ active: boolean }, { error?: unknown }> {
  state: { error?: unknown } = {}

  // React.lazy keeps a failed import, so a retry takes a new one (webpack fetches the chunk again)
  private SignedInHome = lazy(load)

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  private retry = () => {
    this.SignedInHome = lazy(load)
    this.setState({ error: undefined })
  }

  render() {
    const { error } = this.state
    if (error !== undefined && !isLoadFailure(error)) throw error
    if (error !== undefined) {
      return (
        <View className={styles.body}>
          <Text className={styles.tip}>{PAGE_LOAD_FAILED_MESSAGE}</Text>
          <PrimaryButton onClick={this.retry}>重试</PrimaryButton>
        </View>
      )
    }
    const { SignedInHome } = this
    return (
      <Suspense
        fallback={
          <View className={styles.body} role="status">
            <Text className={styles.tip}>{LOADING_TEXT}</Text>
          </View>
        }
      >
        <SignedInHome active={this.props.active} />
      </Suspense>
    )
  }
}
