/** 已发送的消息's columns: when, by whom, to whom (a user linked, or every user), what, delivered and read. */
import type { ProColumns } from '@ant-design/pro-components'
import { Badge } from 'antd'
import type { OperatorMessageRow } from '#console-contract/messages'
import { beijingTime, inBeijing } from '../../../components/beijing-time'
import { UserLink } from '../../../components/record-links'

export const messageColumns: ProColumns<OperatorMessageRow>[] = [
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
