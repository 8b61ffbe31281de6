/**
 * 消息 (every role reads; sendMessages sends): what operators sent, newest first, with how many users have
 * it and have read it; 发送消息 to one user (number or user id) or to every user. Users see it in their
 * message center as a system message, with the unread badge. A broadcast is delivered in the background:
 * its row shows 发送中 until every user has it.
 */
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ProTable } from '@ant-design/pro-components'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type {
  OperatorMessageQuery,
  OperatorMessageRow,
  SendMessageBody,
} from '#console-contract/messages'
import { adminApi } from '../../api'
import SendMessageDialog from './components/SendMessageDialog'
import { messageColumns } from './components/message-columns'

const MESSAGES_KEY = ['operator-messages'] as const

export default function MessagesPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
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

  return (
    <ProTable<OperatorMessageRow>
      rowKey="id"
      headerTitle="已发送的消息"
      columns={messageColumns}
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
          ? [<SendMessageDialog key="send" send={(body) => send.mutateAsync(body)} />]
          : []
      }
    />
  )
}
