/**
 * 消息 (every role reads; sendMessages sends): what operators sent, newest first, with how many users have
 * it and have read it; 发送消息 to one user (number or user id) or to every user. Users see it in their
 * message center as a system message, with the unread badge. A broadcast is delivered in the background:
 * its row shows 发送中 until every user has it.
 */
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ModalForm,
  ProFormRadio,
  ProFormText,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { App, Badge, Button, Typography } from 'antd'
import { MESSAGE_CONTENT_MAX, MESSAGE_TITLE_MAX } from '#domain/console/operator-messages'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type {
  OperatorMessageQuery,
  OperatorMessageRow,
  SendMessageBody,
} from '#console-contract/messages'
import { adminApi } from '../../api'
import { beijingTime, inBeijing } from '../../components/beijing-time'
import { UserLink } from '../../components/record-links'

const MESSAGES_KEY = ['operator-messages'] as const
/** The server's rule, so a refusal is caught before sending (control characters are what it looks for). */
/* eslint-disable no-control-regex */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/
const TITLE_CONTROL = /[\u0000-\u001f\u007f]/
/* eslint-enable no-control-regex */

interface SendForm {
  target: 'user' | 'all'
  user?: string
  title: string
  content: string
}

export default function MessagesPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const { modal } = App.useApp()
  const [params, setParams] = useState<OperatorMessageQuery>({ page: 1, rows: 20 })
  const found = useQuery({
    queryKey: [...MESSAGES_KEY, params],
    queryFn: () => adminApi.operatorMessages(params),
    placeholderData: keepPreviousData,
    // a broadcast being delivered: its count grows until it is done
    refetchInterval: (query) =>
      query.state.data?.records.some((row) => row.deliveredAt === null) ? 3000 : false,
  })
  const send = useMutation({
    mutationFn: (body: SendMessageBody) => adminApi.sendMessage(body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: MESSAGES_KEY }),
  })

  const columns: ProColumns<OperatorMessageRow>[] = [
    {
      title: inBeijing('发送时间'),
      dataIndex: 'createdAt',
      search: false,
      width: 200,
      render: (_, row) => beijingTime(row.createdAt),
    },
    {
      title: '发送人',
      dataIndex: 'operatorName',
      search: false,
      width: 120,
    },
    {
      title: '对象',
      dataIndex: 'userId',
      search: false,
      width: 200,
      render: (_, row) =>
        row.userId === null ? (
          '全部用户'
        ) : (
          <UserLink id={row.userId} mobile={row.mobile} name={row.userName} />
        ),
    },
    { title: '标题', dataIndex: 'title', search: false, ellipsis: true },
    {
      title: '内容',
      dataIndex: 'content',
      search: false,
      ellipsis: true,
      // text, never markup: React escapes it
      render: (_, row) => row.content,
    },
    {
      title: '送达 / 已读',
      dataIndex: 'recipients',
      search: false,
      width: 150,
      render: (_, row) => (
        <>
          {row.recipients} / {row.read}
          {row.deliveredAt === null ? (
            <Badge status="processing" text="发送中" style={{ marginLeft: 8 }} />
          ) : null}
        </>
      ),
    },
  ]

  return (
    <ProTable<OperatorMessageRow>
      rowKey="id"
      headerTitle="已发送的消息"
      columns={columns}
      dataSource={found.data?.records}
      loading={found.isFetching && !found.data}
      search={false}
      options={{ reload: () => void found.refetch(), density: false, setting: false }}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: found.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (page, rows) => setParams({ page: rows === params.rows ? page : 1, rows }),
      }}
      toolBarRender={() =>
        mayDo(role, 'sendMessages')
          ? [
              <ModalForm<SendForm>
                key="send"
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
                    await send.mutateAsync({
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
                        TITLE_CONTROL.test(value ?? '')
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
                        CONTROL.test(value ?? '')
                          ? Promise.reject(new Error('内容不能含控制字符'))
                          : Promise.resolve(),
                    },
                  ]}
                />
                <Typography.Text type="secondary">
                  用户在消息中心以系统消息收到，按纯文本显示；发给全部用户时，发送时已注册的用户都会收到。
                </Typography.Text>
              </ModalForm>,
            ]
          : []
      }
    />
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
