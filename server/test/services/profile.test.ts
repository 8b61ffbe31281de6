import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { users } from '../../src/db/schema'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import { pngBytes, uploadFile } from '../helpers/multipart'
import type { RealNameAuthResult, UploadResult, UserInfo } from '../../src/contract/user'

const ID_CARD = '11010519491231002X'

test('profile, real-name verification, company info and uploads', async (t) => {
  const ctx = await buildTestApp(t)
  const { app } = ctx
  const session = await loginWithSms(ctx, '13500000001')

  await t.test('name: 1–20 characters', async () => {
    const long = await post<UserInfo>(
      app,
      '/user/updateUserInfo',
      { name: '一'.repeat(21) },
      session,
    )
    assert.equal(long.code, 1080)
    assert.equal(long.msg, '昵称不能超过20个字')
    assert.equal(
      (await post<UserInfo>(app, '/user/updateUserInfo', { name: '  ' }, session)).msg,
      '请输入昵称',
    )
    const ok = await post<UserInfo>(app, '/user/updateUserInfo', { name: '云手机玩家' }, session)
    assert.equal(ok.code, 200)
    assert.equal(ok.data.name, '云手机玩家')
  })

  await t.test('upload: a real PNG is stored and served under /files', async () => {
    const reply = await uploadFile(app, session, 'a.png', 'image/png', pngBytes())
    assert.equal(reply.code, 200)
    assert.match(reply.data.path, /^\/files\/uploads\/[0-9a-f-]{36}\.png$/)
    const served = await app.inject({ method: 'GET', url: reply.data.path })
    assert.equal(served.statusCode, 200)
    assert.deepEqual(served.rawPayload, pngBytes())
    const avatar = await post<UserInfo>(
      app,
      '/user/updateUserInfo',
      { avatar: reply.data.path },
      session,
    )
    assert.equal(avatar.code, 200)
    assert.equal(avatar.data.avatar, reply.data.path)
  })

  await t.test('upload: text named .png → 1083, empty → 1029, oversize → 1083', async () => {
    const fake = await uploadFile(
      app,
      session,
      'evil.png',
      'image/png',
      Buffer.from('<script>alert(1)</script>'),
    )
    assert.equal(fake.code, 1083)
    const empty = await uploadFile(app, session, 'empty.png', 'image/png', Buffer.alloc(0))
    assert.equal(empty.code, 1029)
    const big = Buffer.concat([pngBytes(), Buffer.alloc(2 * 1024 * 1024)])
    assert.equal((await uploadFile(app, session, 'big.png', 'image/png', big)).code, 1083)
    const notMultipart = await post<UploadResult>(app, '/file/upload', { file: 'x' }, session)
    assert.equal(notMultipart.code, 1029)
    assert.equal((await uploadFile(app, undefined, 'a.png', 'image/png', pngBytes())).code, 2017)
  })

  await t.test('avatar must be an uploaded file that exists', async () => {
    for (const avatar of [
      'https://evil.example/x.png',
      '/files/uploads/../../etc/passwd',
      '/files/uploads/00000000-0000-0000-0000-000000000000.png',
    ]) {
      const reply = await post<UserInfo>(app, '/user/updateUserInfo', { avatar }, session)
      assert.equal(reply.code, 1083, avatar)
    }
  })

  await t.test(
    'real-name: bad ID card and bad name are refused with the validator messages',
    async () => {
      const badId = await post<RealNameAuthResult>(
        app,
        '/user/realNameAuth',
        { realName: '张三', idCard: '110105194912310021' },
        session,
      )
      assert.equal(badId.code, 1080)
      assert.equal(badId.msg, '请输入正确的身份证号')
      const badName = await post<RealNameAuthResult>(
        app,
        '/user/realNameAuth',
        { realName: 'Zhang', idCard: ID_CARD },
        session,
      )
      assert.equal(badName.msg, '请输入2-20位中文真实姓名')
      assert.equal(
        (await get<UserInfo>(app, '/user/getUserInfo', session)).data.outerUserCheckStatus,
        0,
      )
    },
  )

  await t.test('real-name: verified once, ID masked, never stored in clear', async () => {
    const reply = await post<RealNameAuthResult>(
      app,
      '/user/realNameAuth',
      { realName: '张三', idCard: ID_CARD },
      session,
    )
    assert.equal(reply.code, 200)
    assert.deepEqual(reply.data, {
      realName: '张三',
      idCardMasked: '11010********1002X',
      outerUserCheckStatus: 1,
    })
    const info = await get<UserInfo>(app, '/user/getUserInfo', session)
    assert.equal(info.data.outerUserCheckStatus, 1)
    assert.equal(info.data.idCardMasked, '11010********1002X')
    assert.equal(
      (
        await post<RealNameAuthResult>(
          app,
          '/user/realNameAuth',
          { realName: '张三', idCard: ID_CARD },
          session,
        )
      ).msg,
      '已完成实名认证',
    )
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, session.userId))
    assert.doesNotMatch(JSON.stringify(row), /19491231/)
  })

  await t.test('real-name: an ID already used by another account → 1080', async () => {
    const other = await loginWithSms(ctx, '13500000002')
    const reply = await post<RealNameAuthResult>(
      app,
      '/user/realNameAuth',
      { realName: '李四', idCard: ID_CARD.toLowerCase() },
      other,
    )
    assert.equal(reply.code, 1080)
    assert.equal(reply.msg, '该身份证已被其他账号认证')
  })

  await t.test(
    'company: duplicate work type → 请勿重复添加; unknown ids refused; valid list saved',
    async () => {
      const base = { companyName: '星云科技', address: '上海市浦东新区张江路1号' }
      const duplicate = await post<UserInfo>(
        app,
        '/user/updateCompanyInfo',
        {
          ...base,
          workTypes: [
            { industryId: 1, worktypeId: 101 },
            { industryId: 1, worktypeId: 101 },
          ],
        },
        session,
      )
      assert.equal(duplicate.code, 1080)
      assert.equal(duplicate.msg, '请勿重复添加')
      const mismatched = await post<UserInfo>(
        app,
        '/user/updateCompanyInfo',
        { ...base, workTypes: [{ industryId: 2, worktypeId: 101 }] },
        session,
      )
      assert.equal(mismatched.msg, '所选行业或工种不存在')
      assert.deepEqual(
        [
          (await get<UserInfo>(app, '/user/getUserInfo', session)).data.userType,
          (await get<UserInfo>(app, '/user/getUserInfo', session)).data.companyStatus,
        ],
        [1, 0],
        'refused input changed nothing',
      )
      const saved = await post<UserInfo>(
        app,
        '/user/updateCompanyInfo',
        {
          ...base,
          latitude: 31.2,
          longitude: 121.6,
          workTypes: [
            { industryId: 1, worktypeId: 101 },
            { industryId: 3, worktypeId: 301 },
          ],
        },
        session,
      )
      assert.equal(saved.code, 200)
      // a request for an operator to verify (plan-orders.test.ts follows it through)
      assert.deepEqual([saved.data.userType, saved.data.companyStatus], [1, 1])
      assert.deepEqual(saved.data.company, {
        companyName: '星云科技',
        address: '上海市浦东新区张江路1号',
        latitude: 31.2,
        longitude: 121.6,
      })
      assert.equal(saved.data.workTypes.length, 2)
    },
  )
})
