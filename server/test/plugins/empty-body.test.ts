/**
 * A call without a body is accepted by every route (the app's 退出登录 sends POST
 * /user/exitLogin with no body and `content-type: application/json`; the server answered 400
 * 请求体格式不正确, the app cleared its token and the session lived on). Every POST route in the OpenAPI
 * document is called with no body, both as the client's request layer sends it and with no content-type
 * at all: a route whose body has no required field must reach its handler, and one with required fields
 * must name the first missing one. A new route is covered when it is added.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp, get, loginWithSms, type Session } from '../helpers/test-app'
import type { App } from '../../src/app'
import type { UserInfo } from '../../src/contract/user'

interface Operation {
  requestBody?: { content: Record<string, { schema: { required?: string[] } }> }
}

/** The two ways a call with no data arrives: as the client's request layer sends it, and bare. */
const NO_BODY = [
  { name: 'JSON content-type, empty body', headers: { 'content-type': 'application/json' } },
  { name: 'no content-type, no body', headers: {} },
] as const

async function postWithoutBody(
  app: App,
  url: string,
  headers: Record<string, string>,
  session: Session,
) {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { ...headers, token: session.token, userid: String(session.userId) },
    ...('content-type' in headers ? { payload: '' } : {}),
  })
  let body: { code?: number; msg?: string } = {}
  try {
    body = response.json()
  } catch {
    // the sandbox's own browser pages answer in HTML
  }
  return { status: response.statusCode, code: body.code, msg: body.msg }
}

test('every POST route accepts a call without a body: no 请求体格式不正确, required fields named', async (t) => {
  const ta = await buildTestApp(t)
  const { app } = ta
  let session = await loginWithSms(ta, '13500000011')
  const spec = (
    app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }
  ).swagger()
  const routes = Object.entries(spec.paths)
    .filter(([path, methods]) => methods.post && !path.includes('{'))
    .map(([path, methods]) => ({
      path,
      required: methods.post.requestBody?.content['application/json']?.schema.required ?? [],
    }))
    // logging out last keeps the session for the others
    .sort((a, b) => Number(a.path.endsWith('/exitLogin')) - Number(b.path.endsWith('/exitLogin')))
  assert.ok(routes.length > 50, `the document lists the POST routes (${routes.length})`)
  assert.ok(routes.some((route) => route.path === '/vmcloud/api/user/exitLogin'))

  const problems: string[] = []
  let optionalBodies = 0
  for (const { path, required } of routes) {
    if (required.length === 0) optionalBodies++
    for (const variant of NO_BODY) {
      const reply = await postWithoutBody(app, path, variant.headers, session)
      const what = `POST ${path} (${variant.name}) → ${reply.status} ${reply.code} ${reply.msg}`
      if (reply.status >= 500) problems.push(what)
      else if (reply.msg === '请求体格式不正确') problems.push(what)
      else if (required.length === 0 && reply.status === 400) problems.push(what)
      else if (required.length > 0 && reply.status === 400 && !reply.msg?.startsWith('缺少参数'))
        problems.push(`${what} (expected 缺少参数 …)`)
      if (path.endsWith('/exitLogin')) {
        assert.equal(reply.code, 200, what)
        assert.equal(
          (await get<UserInfo>(app, '/user/getUserInfo', session)).code,
          2017,
          'logged out',
        )
        session = await loginWithSms(ta, '13500000011')
      }
    }
  }
  assert.ok(optionalBodies > 5, `routes whose body has no required field: ${optionalBodies}`)
  assert.deepEqual(problems, [])
})
