/**
 * 设置 (every role reads, admin and operations edit): the common config the user site shows (到期续费提醒,
 * 客服电话, 客服时间; the app version is the server's), the online customer-service address (an
 * environment variable, read-only here), the activities with their time window and on/off, and each
 * flash-sale item's price (typed in 元, sent in fen), stock and order. Edits are checked by the rules
 * the server applies (#domain/console/settings-edits) before sending; an edit of something another operator
 * changed since it was read is refused (4096): its message shows and the page is read again. The user
 * agreement and privacy policy are compiled into the client: the page says so and where they live.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ProTable } from '@ant-design/pro-components'
import { Alert, App, Button, Card, Space, Typography } from 'antd'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { AdminActivity } from '#console-contract/settings'
import { adminApi, ApiError } from '../../api'
import CommonConfigForm from './components/CommonConfigForm'
import CustomerServiceUrl from './components/CustomerServiceUrl'
import SeckillItems from './components/SeckillItems'
import { activityColumns } from './components/activity-columns'
import { settingsRefusal, type MutationOptions } from './components/settings-refusal'

const SETTINGS_KEY = ['settings'] as const

export default function SettingsPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: adminApi.settings })
  const editable = mayDo(role, 'editSettings')
  const { message } = App.useApp()
  const reread = () => queryClient.invalidateQueries({ queryKey: SETTINGS_KEY })
  const mutationOptions: MutationOptions = {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success('已保存，用户端下次读取时显示')
      void reread()
    },
    onError: (error: unknown) => {
      void message.error(settingsRefusal(error))
      if (error instanceof ApiError && error.code === OperatorCode.SETTINGS_CHANGED) void reread()
    },
  }
  const data = settings.data

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        设置
      </Typography.Title>
      {!editable && (
        <Alert type="info" showIcon message="你的角色只能查看设置；修改需要管理员或运营角色。" />
      )}
      {settings.isError && (
        <Alert
          type="error"
          showIcon
          message="设置读取失败"
          action={
            <Button size="small" onClick={() => void reread()}>
              重试
            </Button>
          }
        />
      )}
      <Card title="通用配置" loading={settings.isLoading}>
        {data && (
          <CommonConfigForm
            key={data.common.version}
            row={data.common}
            editable={editable}
            mutationOptions={mutationOptions}
          />
        )}
      </Card>
      <Card title="在线客服地址" loading={settings.isLoading}>
        {data && <CustomerServiceUrl url={data.customerServiceUrl} />}
      </Card>
      <Card title="活动与秒杀" styles={{ body: { padding: 0 } }}>
        <ProTable<AdminActivity>
          rowKey="id"
          search={false}
          options={false}
          pagination={false}
          loading={settings.isLoading}
          dataSource={data?.activities ?? []}
          columns={activityColumns(editable, mutationOptions)}
          expandable={{
            rowExpandable: (row) => row.items.length > 0,
            expandedRowRender: (row) => (
              <SeckillItems activity={row} editable={editable} mutationOptions={mutationOptions} />
            ),
          }}
        />
      </Card>
      <Card title="用户协议与隐私政策">
        <Alert
          type="info"
          showIcon
          message="协议正文随用户端发布，不能在此修改"
          description={
            <>
              《云手机用户服务协议》与《隐私政策》的正文编译在用户端（小程序与 H5）中，位于源代码
              <Typography.Text code>src/pages/webView/parts/protocol-content.ts</Typography.Text>
              ，登录页与「我的」中的协议链接打开的都是这份正文。修改协议需要改动该文件（连同其中的更新日期）并发布新版本的用户端；已安装的小程序在用户更新到新版本后才显示新正文。
            </>
          }
        />
      </Card>
    </Space>
  )
}
