/**
 * 发送消息: to one user (number or user id) or to every user, who is asked about once more; the title and
 * body are checked by the server's rules before sending.
 */
import { ModalForm, ProFormRadio, ProFormText, ProFormTextArea } from '@ant-design/pro-components'
import { App, Button, Typography } from 'antd'
import {
  CONTENT_CONTROL_CHARACTERS,
  MESSAGE_CONTENT_MAX,
  MESSAGE_TITLE_MAX,
  TITLE_CONTROL_CHARACTERS,
} from '#domain/console/operator-messages'
import type { SendMessageBody } from '#console-contract/messages'

interface SendForm {
  target: 'user' | 'all'
  user?: string
  title: string
  content: string
}

export default function SendMessageDialog({
  send,
}: {
  send: (body: SendMessageBody) => Promise<unknown>
}) {
  const { modal } = App.useApp()
  return (
    <ModalForm<SendForm>
      title="发送消息"
      width={560}
      trigger={<Button type="primary">发送消息</Button>}
      initialValues={{ target: 'user' }}
      modalProps={{ destroyOnClose: true, okText: '发送' }}
      onFinish={async (values) => {
        // every user's message center, with no undo: asked once more, naming that
        if (values.target === 'all' && !(await confirmBroadcast(modal, values.title))) {
          return false
        }
        try {
          await send({
            broadcast: values.target === 'all',
            user: values.target === 'user' ? values.user?.trim() : undefined,
            title: values.title.trim(),
            content: values.content,
          })
          return true
        } catch {
          return false // the refusal's message is shown; the form stays for a correction
        }
      }}
    >
      <ProFormRadio.Group
        name="target"
        label="发送对象"
        options={[
          { value: 'user', label: '指定用户' },
          { value: 'all', label: '全部用户' },
        ]}
      />
      <ProFormText
        name="user"
        label="用户"
        placeholder="完整手机号或用户ID"
        fieldProps={{ maxLength: 11 }}
        dependencies={['target']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_: unknown, value?: string) =>
              getFieldValue('target') !== 'user' || /^\s*\d{1,11}\s*$/.test(value ?? '')
                ? Promise.resolve()
                : Promise.reject(new Error('请输入完整手机号或用户ID')),
          }),
        ]}
      />
      <ProFormText
        name="title"
        label="标题"
        fieldProps={{ maxLength: MESSAGE_TITLE_MAX, showCount: true }}
        rules={[
          { required: true, whitespace: true, message: '请输入标题' },
          {
            validator: (_: unknown, value?: string) =>
              TITLE_CONTROL_CHARACTERS.test(value ?? '')
                ? Promise.reject(new Error('标题不能含控制字符或换行'))
                : Promise.resolve(),
          },
        ]}
      />
      <ProFormTextArea
        name="content"
        label="内容"
        fieldProps={{ maxLength: MESSAGE_CONTENT_MAX, showCount: true, rows: 6 }}
        rules={[
          { required: true, whitespace: true, message: '请输入内容' },
          {
            validator: (_: unknown, value?: string) =>
              CONTENT_CONTROL_CHARACTERS.test(value ?? '')
                ? Promise.reject(new Error('内容不能含控制字符'))
                : Promise.resolve(),
          },
        ]}
      />
      <Typography.Text type="secondary">
        用户在消息中心以系统消息收到，按纯文本显示；发给全部用户时，发送时已注册的用户都会收到。
      </Typography.Text>
    </ModalForm>
  )
}

/** Asks before a message goes to every user; answers whether the operator confirmed. */
function confirmBroadcast(
  modal: ReturnType<typeof App.useApp>['modal'],
  title: string,
): Promise<boolean> {
  return new Promise((resolve) => {
    modal.confirm({
      title: '发送给全部用户？',
      content: `「${title.trim()}」将发到每位已注册用户的消息中心，发送后无法撤回。`,
      okText: '确认发送',
      okButtonProps: { danger: true }, // sent to everyone, no recall: red like every irreversible confirm
      cancelText: '再想想',
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    })
  })
}
