import { Button } from '@nutui/nutui-react-taro'
import type { RouteName } from '@/constants/routes'
import { copyLandingLink, isH5 } from './use-play-trial'

/** H5 has no share card: the page offers its own address to paste into a chat. */
export default function CopyLinkButton({ route }: { route: RouteName }) {
  if (!isH5) return null
  return (
    <Button block fill="none" onClick={() => copyLandingLink(route)}>
      复制链接分享给好友
    </Button>
  )
}
