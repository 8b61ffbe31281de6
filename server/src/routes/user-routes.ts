import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { ResultCode } from '#domain/result-codes'
import { Envelope } from '../contract/common'
import { UserFlux } from '../contract/flux'
import {
  ChangeBindingMobileBody,
  FirstPasswordBody,
  MobileTicket,
  RealNameAuthBody,
  RealNameAuthResult,
  SmsCodeBody,
  UpdateCompanyInfoBody,
  UpdatePasswordBody,
  UpdateUserInfoBody,
  UploadResult,
  UserInfo,
} from '../contract/user'
import { BizError } from '../domain/biz-error'
import { currentUser } from '../plugins/auth'
import { ok } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const userRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { accountChanges, profile, files, flux } = app.services
  const tags = ['账号']
  const security = bearer
  const Done = Envelope(Type.Null())

  app.get(
    '/user/getUserInfo',
    { schema: { tags, security, response: { 200: Envelope(UserInfo) } } },
    async (request) => ok(await profile.getUserInfo(currentUser(request).userId)),
  )

  app.get(
    '/user/flux',
    { schema: { tags, security, response: { 200: Envelope(UserFlux) } } },
    async (request) => ok(await flux.read(currentUser(request).userId)),
  )

  app.post(
    '/user/updateUserInfo',
    { schema: { tags, security, body: UpdateUserInfoBody, response: { 200: Envelope(UserInfo) } } },
    async (request) => ok(await profile.updateUserInfo(currentUser(request).userId, request.body)),
  )

  app.post(
    '/user/realNameAuth',
    {
      schema: {
        tags,
        security,
        body: RealNameAuthBody,
        response: { 200: Envelope(RealNameAuthResult) },
      },
    },
    async (request) =>
      ok(
        await profile.realNameAuth(
          currentUser(request).userId,
          request.body.realName,
          request.body.idCard,
        ),
      ),
  )

  app.post(
    '/user/updateCompanyInfo',
    {
      schema: {
        tags,
        security,
        body: UpdateCompanyInfoBody,
        response: { 200: Envelope(UserInfo) },
      },
    },
    async (request) =>
      ok(await profile.updateCompanyInfo(currentUser(request).userId, request.body)),
  )

  app.post(
    '/user/updateUserPassword',
    { schema: { tags, security, body: UpdatePasswordBody, response: { 200: Done } } },
    async (request) => {
      const { userId, tokenId } = currentUser(request)
      await accountChanges.changePassword(
        userId,
        tokenId,
        request.body.oldPassword,
        request.body.newPassword,
      )
      return ok(null)
    },
  )

  app.post(
    '/user/firstUpdateUserPassword',
    { schema: { tags, security, body: FirstPasswordBody, response: { 200: Done } } },
    async (request) => {
      await accountChanges.setFirstPassword(currentUser(request).userId, request.body.newPassword)
      return ok(null)
    },
  )

  app.post(
    '/user/checkOldMobile',
    { schema: { tags, security, body: SmsCodeBody, response: { 200: Envelope(MobileTicket) } } },
    async (request) =>
      ok(await accountChanges.checkOldMobile(currentUser(request).userId, request.body.code)),
  )

  app.post(
    '/user/changeBindingMobile',
    { schema: { tags, security, body: ChangeBindingMobileBody, response: { 200: Done } } },
    async (request) => {
      const { ticket, mobilePhone, code } = request.body
      await accountChanges.changeMobile(currentUser(request).userId, ticket, mobilePhone, code)
      return ok(null)
    },
  )

  app.post(
    '/user/logoutUser',
    {
      schema: {
        tags,
        security,
        description: 'Account deletion (注销), confirmed with a deleteAccount SMS code.',
        body: SmsCodeBody,
        response: { 200: Done },
      },
    },
    async (request) => {
      await accountChanges.deleteAccount(currentUser(request).userId, request.body.code)
      return ok(null)
    },
  )

  app.post(
    '/file/upload',
    {
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        description:
          'multipart field `file`: PNG, JPG, GIF or WEBP (by content; markup inside refused), at most 2 MB; 20 files / 20 MB a day.',
        response: { 200: Envelope(UploadResult) },
      },
    },
    async (request) => {
      const { userId } = currentUser(request)
      if (!request.isMultipart()) throw new BizError(ResultCode.FILE_EMPTY, '请选择要上传的图片')
      const part = await request.file()
      if (!part || part.fieldname !== 'file')
        throw new BizError(ResultCode.FILE_EMPTY, '请选择要上传的图片')
      const content = await part.toBuffer()
      return ok(await files.saveImage(userId, content))
    },
  )
}

export default userRoutes
