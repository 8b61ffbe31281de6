/** 账号, 密码, 动态码 (the authenticator's six digits); a refusal shows the server's message. */
import { useMutation } from '@tanstack/react-query'
import { Alert, Button, Card, Form, Input, Typography, theme } from 'antd'
import type { AdminSession, SignInBody } from '#console-contract'
import { adminApi } from '../../api'

export default function SignInPage({
  onSignedIn,
}: {
  onSignedIn: (session: AdminSession) => void
}) {
  const { token } = theme.useToken()
  const signIn = useMutation({
    mutationFn: adminApi.signIn,
    onSuccess: onSignedIn,
    meta: { inlineError: true },
  })

  return (
    <main
      style={{
        display: 'grid',
        placeItems: 'center',
        minHeight: '100vh',
        background: token.colorBgLayout,
      }}
    >
      <Card style={{ width: 400 }}>
        <Typography.Title level={1} style={{ fontSize: 22, textAlign: 'center', marginTop: 0 }}>
          云手机运营后台
        </Typography.Title>
        <Form<SignInBody>
          layout="vertical"
          requiredMark={false}
          disabled={signIn.isPending}
          onFinish={(values) => signIn.mutate(values)}
        >
          <Form.Item label="账号" name="name" rules={[{ required: true, message: '请输入账号' }]}>
            <Input autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item
            label="密码"
            name="password"
            rules={[{ required: true, message: '请输入密码' }]}
          >
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            label="动态码"
            name="totp"
            extra="身份验证器中的 6 位数字"
            rules={[
              { required: true, message: '请输入动态码' },
              { pattern: /^[0-9]{6}$/, message: '动态码是 6 位数字' },
            ]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          {signIn.error && (
            <Form.Item>
              <Alert type="error" showIcon role="alert" message={signIn.error.message} />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={signIn.isPending}>
            登录
          </Button>
        </Form>
      </Card>
    </main>
  )
}
