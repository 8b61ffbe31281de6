import { Empty } from '@nutui/nutui-react-taro'
import type { ComponentProps } from 'react'
import emptyImage from '@/assets/tab/home.png'
import Picture from '@/components/Picture'

/**
 * NutUI's Empty with our own bundled picture: its default images load from a third-party CDN, which
 * fails offline and on networks that block it (a broken-image box). The picture is decorative: the
 * description says what is empty.
 */
export default function EmptyState(props: ComponentProps<typeof Empty>) {
  return (
    <Empty
      image={<Picture alt="" src={emptyImage} style={{ width: '100%', height: '100%' }} />}
      imageSize={80}
      {...props}
    />
  )
}
