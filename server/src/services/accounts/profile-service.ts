import { and, eq, inArray, isNull } from 'drizzle-orm'
import { ResultCode } from '#domain/result-codes'
import { validateIdCard, validateName, validateRealName } from '#domain/validators'
import type { UpdateCompanyInfoBody, UpdateUserInfoBody, UserInfo } from '../../contract/user'
import type { Db } from '../../db/client'
import { dictionaries, messages, users, userWorkTypes } from '../../db/schema'
import { BizError } from '../../domain/biz-error'
import { isUploadPath } from '../../domain/files'
import { maskIdCard } from '#domain/formatters'
import { hashIdCard } from '../../domain/secrets'
import { hasDuplicateWorkType } from '#domain/work-types'
import { getUser } from './account-registration'
import type { ServiceContext } from '../context'
import { holdOwnUpload } from '../file-service'
import { isUniqueViolation } from '../context'
import { MessageKind } from '../engagement/message-service'
import { COMPANY_USER_TYPE, unpaidUnitsCapped } from '../orders/buyer-standing'

const ID_CARD_TAKEN = '该身份证已被其他账号认证'
/** A company that asks again is personal meanwhile, and its unpaid orders may hold more than that allows. */
const COMPANY_UNITS_HELD =
  '您未支付的企业采购订单超出个人用户的上限，请先支付或取消后再修改公司名称'

/** Company verification (users.companyStatus): a company buyer only once an operator verified it. */
export const CompanyStatus = { none: 0, requested: 1, verified: 2, rejected: 3 } as const
type CompanyStatusValue = (typeof CompanyStatus)[keyof typeof CompanyStatus]
const companyStatusOf = (value: number): CompanyStatusValue =>
  value === 1 || value === 2 || value === 3 ? value : 0

/**
 * An operator's decision on a company request (npm run company:verify): verified makes the user a
 * company buyer (userType 2, big-user orders and their limits); rejected leaves them personal. The user
 * is told by a system message. False when the user has no open request.
 */
export async function decideCompanyRequest(
  db: Db,
  now: Date,
  userId: number,
  verified: boolean,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set(
        verified
          ? { companyStatus: CompanyStatus.verified, userType: COMPANY_USER_TYPE }
          : { companyStatus: CompanyStatus.rejected, userType: 1 },
      )
      .where(
        and(
          eq(users.id, userId),
          eq(users.companyStatus, CompanyStatus.requested),
          isNull(users.deletedAt),
        ),
      )
      .returning({ companyName: users.companyName })
    if (!user) return false
    await tx.insert(messages).values({
      userId,
      type: MessageKind.SYSTEM,
      title: verified ? '企业认证已通过' : '企业认证未通过',
      content: verified
        ? `「${user.companyName ?? ''}」已通过企业认证，您现在可以使用企业采购。`
        : `「${user.companyName ?? ''}」未通过企业认证，请核对公司信息后重新提交，或联系客服。`,
      createdAt: now,
    })
    return true
  })
}

export class ProfileService {
  constructor(private readonly ctx: ServiceContext) {}

  async getUserInfo(userId: number): Promise<UserInfo> {
    const user = await getUser(userId, this.ctx.db)
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
      companyStatus: companyStatusOf(user.companyStatus),
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
    const user = await getUser(userId, this.ctx.db)
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
    const user = await getUser(userId, this.ctx.db)
    const companyName = body.companyName.trim()
    // Saving details asks for verification; a verified company keeps it while its name stays the same.
    const stillVerified =
      user.companyStatus === CompanyStatus.verified && user.companyName === companyName
    await unpaidUnitsCapped(COMPANY_UNITS_HELD, () =>
      this.ctx.db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({
            userType: stillVerified ? COMPANY_USER_TYPE : 1,
            companyStatus: stillVerified ? CompanyStatus.verified : CompanyStatus.requested,
            companyName,
            companyAddress: body.address.trim(),
            latitude: body.latitude ?? null,
            longitude: body.longitude ?? null,
          })
          .where(eq(users.id, userId))
        await tx.delete(userWorkTypes).where(eq(userWorkTypes.userId, userId))
        if (body.workTypes.length > 0) {
          await tx.insert(userWorkTypes).values(body.workTypes.map((pair) => ({ userId, ...pair })))
        }
      }),
    )
    return this.getUserInfo(userId)
  }
}
