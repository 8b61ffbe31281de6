/**
 * 应用库 (every role reads; editCatalogue, as 商品与价格, uploads and hides): the catalogue of apps every user
 * may pick from in 应用管理 (docs/apps.md). 上传安装包 sends an APK the server reads as a user's upload is;
 * its refusals (not an APK, too large, unreadable…) show in the server's words by the console's handler.
 * 隐藏 takes an entry off the users' list (installs made from it keep its name); 显示 puts it back.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { App, Avatar, Badge, Button, Popconfirm, Upload } from 'antd'
import { APK_MAX_BYTES, APK_REFUSALS } from '#domain/apps'
import { formatBytes } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type { CatalogueApp } from '#console-contract/apps'
import { adminApi } from '../../api'
import { beijingTime, inBeijing } from '../../components/beijing-time'

const APPS_KEY = ['console', 'apps'] as const

/** What 显示 and 隐藏 do, said in their confirms. */
const TOGGLE_NOTES = {
  显示: '显示后用户可以在应用管理中看到并安装它。',
  隐藏: '隐藏后用户在应用管理中不再看到它（已安装的云手机不受影响）。',
} as const

export default function AppsPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const apps = useQuery({ queryKey: APPS_KEY, queryFn: adminApi.catalogueApps })
  const editable = mayDo(role, 'editCatalogue')
  const { message } = App.useApp()
  const reread = () => queryClient.invalidateQueries({ queryKey: APPS_KEY })

  const upload = useMutation({
    mutationFn: (file: File) => adminApi.addCatalogueApp(file, file.name),
    onSuccess: (app) => {
      void message.success(`已添加「${app.name}」，用户在应用管理中可以看到`)
      void reread()
    },
  })
  const hide = useMutation({
    mutationFn: (app: CatalogueApp) => adminApi.setAppHidden(app.appId, !app.hidden),
    onSuccess: (app) => {
      void message.success(app.hidden ? `已隐藏「${app.name}」` : `已显示「${app.name}」`)
      void reread()
    },
    onError: () => void reread(),
  })

  const columns: ProColumns<CatalogueApp>[] = [
    {
      title: '图标',
      dataIndex: 'iconUrl',
      width: 64,
      render: (_, row) => (
        <Avatar shape="square" size={40} src={row.iconUrl ?? undefined} alt={`${row.name}的图标`}>
          {row.iconUrl ? undefined : row.name.slice(0, 1)}
        </Avatar>
      ),
    },
    { title: '名称', dataIndex: 'name' },
    { title: '包名', dataIndex: 'packageName', copyable: true },
    {
      title: '版本',
      dataIndex: 'versionName',
      render: (_, row) => `${row.versionName || '—'}（${row.versionCode}）`,
    },
    { title: '大小', dataIndex: 'sizeBytes', render: (_, row) => formatBytes(row.sizeBytes) },
    { title: '上传人', dataIndex: 'addedBy', render: (_, row) => row.addedBy ?? '—' },
    {
      title: inBeijing('上传时间'),
      dataIndex: 'createdAt',
      render: (_, row) => beijingTime(Date.parse(row.createdAt)),
    },
    {
      title: '状态',
      dataIndex: 'hidden',
      render: (_, row) =>
        row.hidden ? (
          <Badge status="default" text="已隐藏" />
        ) : (
          <Badge status="success" text="显示中" />
        ),
    },
    {
      title: '操作',
      valueType: 'option',
      hideInTable: !editable,
      render: (_, row) => {
        const verb = row.hidden ? '显示' : '隐藏'
        return (
          <Popconfirm
            key={verb}
            title={`${verb}「${row.name}」？`}
            description={TOGGLE_NOTES[verb]}
            okText={verb}
            cancelText="取消"
            onConfirm={() => hide.mutateAsync(row).catch(() => undefined)}
          >
            <Button type="link" style={{ padding: 0 }} aria-label={`${verb} ${row.name}`}>
              {verb}
            </Button>
          </Popconfirm>
        )
      },
    },
  ]

  const uploader = (
    <Upload
      key="upload"
      accept=".apk,application/vnd.android.package-archive"
      showUploadList={false}
      disabled={upload.isPending}
      beforeUpload={(file) => {
        // the server cuts the upload at the same limit; refusing here spares sending 100 MB for nothing
        if (file.size > APK_MAX_BYTES) {
          void message.error(APK_REFUSALS.tooLarge)
          return Upload.LIST_IGNORE
        }
        return true
      }}
      customRequest={({ file, onSuccess, onError }) => {
        upload.mutateAsync(file as File).then(
          (app) => onSuccess?.(app),
          (error: Error) => onError?.(error),
        )
      }}
    >
      <Button type="primary" loading={upload.isPending}>
        上传安装包
      </Button>
    </Upload>
  )

  return (
    <ProTable<CatalogueApp>
      rowKey="appId"
      headerTitle="应用库"
      tooltip={`用户在应用管理中可从这里选择应用安装；安装包（APK）不超过${formatBytes(APK_MAX_BYTES)}`}
      columns={columns}
      dataSource={apps.data?.apps}
      loading={apps.isFetching}
      search={false}
      pagination={false}
      toolBarRender={() => (editable ? [uploader] : [])}
      options={{ reload: () => void apps.refetch(), density: false, setting: false }}
    />
  )
}
