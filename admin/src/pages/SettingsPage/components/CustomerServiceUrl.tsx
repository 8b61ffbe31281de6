/** 在线客服地址: the environment variable's value, read-only, with a warning when it is not https. */
import { Alert, Space, Typography } from 'antd'
import { validateHttpsUrl } from '#domain/console/settings-edits'

export default function CustomerServiceUrl({ url }: { url: string | null }) {
  const problem = url === null ? null : validateHttpsUrl('在线客服地址', url)
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text>
        当前地址：
        {url === null ? (
          <Typography.Text type="secondary">未设置（「联系客服」页不显示在线客服）</Typography.Text>
        ) : (
          <Typography.Text copyable>{url}</Typography.Text>
        )}
      </Typography.Text>
      <Typography.Text type="secondary">
        此地址由服务器的环境变量
        <Typography.Text code>CUSTOMER_SERVICE_URL</Typography.Text>
        设置（见部署文档 docs/deploy.md），不能在此修改：修改环境变量并重启服务后生效。
      </Typography.Text>
      {problem && (
        <Alert type="warning" showIcon message={`${problem}，用户可能无法打开在线客服`} />
      )}
    </Space>
  )
}
