/** A user's profile: number, nickname, frozen or not, type, company and its verification, balances, times. */
import { ProDescriptions } from '@ant-design/pro-components'
import { formatYuan } from '#domain/formatters'
import type { AdminUserDetail } from '#console-contract/users'
import {
  COMPANY_STATUS_LABELS,
  FrozenBadge,
  USER_TYPE_LABELS,
} from '../../../components/user-labels'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { userLabel } from '../../../components/record-links'
import { beans } from './user-history'

const time = beijingOrDash

export default function UserFacts({ user }: { user: AdminUserDetail['user'] }) {
  const live = user.deletedAt === null
  return (
    <ProDescriptions
      title={userLabel(user)}
      column={3}
      bordered
      size="small"
      dataSource={user}
      columns={[
        { title: '手机号', dataIndex: 'mobile', render: () => user.mobile ?? '（已注销）' },
        { title: '昵称', dataIndex: 'name', render: () => user.name || '—' },
        {
          title: '状态',
          dataIndex: 'frozen',
          render: () => <FrozenBadge frozen={user.frozen} />,
        },
        { title: '类型', dataIndex: 'userType', render: () => USER_TYPE_LABELS[user.userType] },
        { title: '公司', dataIndex: 'companyName', render: () => user.companyName ?? '—' },
        {
          title: '企业认证',
          dataIndex: 'companyStatus',
          render: () => COMPANY_STATUS_LABELS[user.companyStatus],
        },
        {
          title: '公司地址',
          dataIndex: 'companyAddress',
          render: () => user.companyAddress ?? '—',
        },
        {
          title: '实名认证',
          dataIndex: 'checkStatus',
          render: () => (user.checkStatus ? '已实名' : '未实名'),
        },
        { title: '云豆余额', dataIndex: 'beanBalance', render: () => beans(user.beanBalance) },
        {
          title: '账户余额',
          dataIndex: 'accountBalance',
          render: () => formatYuan(user.accountBalance),
        },
        {
          title: inBeijing('注册时间'),
          dataIndex: 'createdAt',
          render: () => time(user.createdAt),
        },
        {
          title: inBeijing('最近登录'),
          dataIndex: 'lastLoginAt',
          render: () => time(user.lastLoginAt),
        },
        ...(live
          ? []
          : [
              {
                title: inBeijing('注销时间'),
                dataIndex: 'deletedAt',
                render: () => time(user.deletedAt),
              },
            ]),
      ]}
    />
  )
}
