import { Button } from '@nutui/nutui-react-taro'
import { ResultCode } from '@/domain/result-codes'
import { navigate } from '@/runtime/navigation'

/**
 * What a list that failed to load offers: 重新加载, or 联系客服 for a frozen account (1057), whose
 * loads the server refuses until customer service unfreezes it.
 */
export default function RetryButton({
  code,
  onRetry,
}: {
  code: number | null
  onRetry: () => void
}) {
  return code === ResultCode.ACCOUNT_HAS_BEEN_FROZEN ? (
    <Button size="small" onClick={() => void navigate('customerService')}>
      联系客服
    </Button>
  ) : (
    <Button size="small" onClick={onRetry}>
      重新加载
    </Button>
  )
}
