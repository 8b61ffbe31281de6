import { and, eq, inArray, isNull } from 'drizzle-orm'
import { ResultCode } from '../../../src/domain/result-codes'
import { validateIdCard, validateName, validateRealName } from '../../../src/domain/validators'
import type { UpdateCompanyInfoBody, UpdateUserInfoBody, UserInfo } from '../contract/user'
import { dictionaries, users, userWorkTypes } from '../db/schema'
import { BizError } from '../domain/biz-error'
import { isUploadPath } from '../domain/files'
import { maskIdCard } from '../domain/masking'
import { hashIdCard } from '../domain/secrets'
import { hasDuplicateWorkType } from '../domain/work-types'
import type { AccountService } from './account-service'
import type { ServiceContext } from './context'
import { holdOwnUpload } from './file-service'
import { isUniqueViolation } from './context'

const ID_CARD_TAKEN = '该身份证已被其他账号认证'

export class ProfileService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly accounts: AccountService,
  ) {}

  async getUserInfo(userId: number): Promise<UserInfo> {
    const user = await this.accounts.getUser(userId)
    const workTypes = await this.ctx.db
      .select({ industryId: userWorkTypes.industryId, worktypeId: userWorkTypes.worktypeId })
      .from(userWorkTypes)
      .where(eq(userWorkTypes.userId, userId))
    return {
      userId: user.id,
      mobilePhone: user.mobilePhone ?? '',
      name: user.name,
      avatar: user.avatar,
      userType: user.userType === 2 ? 2 : 1,
      outerUserCheckStatus: user.checkStatus === 1 ? 1 : 0,
      realName: user.realName ?? '',
      idCardMasked: user.idCardMasked ?? '',
      hasPassword: user.passwordHash != null,
      inviteCode: user.inviteCode,
      openActivityBall: user.openActivityBall === 1 ? 1 : 0,
      company: user.companyName
        ? {
            companyName: user.companyName,
            address: user.companyAddress ?? '',
            latitude: user.latitude,
            longitude: user.longitude,
          }
        : null,
      workTypes,
      createdAt: user.createdAt.getTime(),
    }
  }

  async updateUserInfo(userId: number, body: UpdateUserInfoBody): Promise<UserInfo> {
    const patch: Partial<typeof users.$inferInsert> = {}
    if (body.name !== undefined) {
      const problem = validateName(body.name)
      if (problem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, problem)
      patch.name = body.name.trim()
    }
    const noAvatar = () => new BizError(ResultCode.ILLEGAL_FILE, '头像文件不存在，请重新上传')
    if (body.avatar !== undefined) {
      if (!isUploadPath(body.avatar)) throw noAvatar()
      patch.avatar = body.avatar
    }
    if (body.openActivityBall !== undefined) patch.openActivityBall = body.openActivityBall
    if (Object.keys(patch).length > 0) {
      await this.ctx.db.transaction(async (tx) => {
        // the user's own upload, held so the orphan purge cannot take it meanwhile
        if (patch.avatar && !(await holdOwnUpload(tx, userId, patch.avatar))) throw noAvatar()
        await tx
          .update(users)
          .set(patch)
          .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      })
    }
    return this.getUserInfo(userId)
  }

  /** One verification per account; one account per ID number. The number itself is never stored. */
  async realNameAuth(userId: number, realName: string, idCard: string) {
    const nameProblem = validateRealName(realName)
    if (nameProblem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, nameProblem)
    const idProblem = validateIdCard(idCard)
    if (idProblem) throw new BizError(ResultCode.SHOW_ERROR_TIPS, idProblem)
    const user = await this.accounts.getUser(userId)
    if (user.checkStatus === 1) throw new BizError(ResultCode.SHOW_ERROR_TIPS, '已完成实名认证')
    const idCardHash = hashIdCard(idCard)
    const [holder] = await this.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.idCardHash, idCardHash))
    if (holder) throw new BizError(ResultCode.SHOW_ERROR_TIPS, ID_CARD_TAKEN)
    const idCardMasked = maskIdCard(idCard)
    try {
      await this.ctx.db
        .update(users)
        .set({ realName: realName.trim(), idCardHash, idCardMasked, checkStatus: 1 })
        .where(eq(users.id, userId))
    } catch (error) {
      if (isUniqueViolation(error)) throw new BizError(ResultCode.SHOW_ERROR_TIPS, ID_CARD_TAKEN)
      throw error
    }
    return { realName: realName.trim(), idCardMasked, outerUserCheckStatus: 1 as const }
  }

  /** Company profile with its work types; replaces the previous list as a whole. */
  async updateCompanyInfo(userId: number, body: UpdateCompanyInfoBody): Promise<UserInfo> {
    if (hasDuplicateWorkType(body.workTypes))
      throw new BizError(ResultCode.SHOW_ERROR_TIPS, '请勿重复添加')
    if (body.workTypes.length > 0) {
      const ids = [...new Set(body.workTypes.flatMap((pair) => [pair.industryId, pair.worktypeId]))]
      const known = await this.ctx.db
        .select({
          id: dictionaries.id,
          dictType: dictionaries.dictType,
          parentId: dictionaries.parentId,
        })
        .from(dictionaries)
        .where(inArray(dictionaries.id, ids))
      const byId = new Map(known.map((row) => [row.id, row]))
      for (const pair of body.workTypes) {
        const industry = byId.get(pair.industryId)
        const worktype = byId.get(pair.worktypeId)
        if (
          industry?.dictType !== 'industry' ||
          worktype?.dictType !== 'worktype' ||
          worktype.parentId !== industry.id
        ) {
          throw new BizError(ResultCode.SHOW_ERROR_TIPS, '所选行业或工种不存在')
        }
      }
    }
    await this.accounts.getUser(userId)
    await this.ctx.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          userType: 2,
          companyName: body.companyName.trim(),
          companyAddress: body.address.trim(),
          latitude: body.latitude ?? null,
          longitude: body.longitude ?? null,
        })
        .where(eq(users.id, userId))
      await tx.delete(userWorkTypes).where(eq(userWorkTypes.userId, userId))
      if (body.workTypes.length > 0) {
        await tx.insert(userWorkTypes).values(body.workTypes.map((pair) => ({ userId, ...pair })))
      }
    })
    return this.getUserInfo(userId)
  }
}
