import { Empty } from '@nutui/nutui-react-taro'
import type { ComponentProps } from 'react'
import emptyImage from '@/assets/tab/home.png'

/**
 * NutUI's Empty with our own bundled picture: its default images load from a third-party CDN, which
 * fails offline and on networks that block it (a broken-image box).
 */
export default function EmptyState(props: ComponentProps<typeof Empty>) {
  return <Empty image={emptyImage} imageSize={80} {...props} />
}
