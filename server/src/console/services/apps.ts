/**
 * The console's 应用库: the catalogue of apps every user may pick from (services/apps/app-library.ts
 * reads each APK the same way as a user's upload). Adding and hiding are audited.
 */
import { and, asc, eq, inArray } from 'drizzle-orm'
import { operatorAudit, operators } from '../../db/schema'
import type { AppLibraryService, AppItem } from '../../services/apps'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { CatalogueApp } from '../contract/apps'
import type { OperatorAuditService } from './operator-audit'

export class AdminAppService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly library: AppLibraryService,
  ) {}

  /** Every entry, hidden ones too, each with who added it (the first 添加应用 of it in the audit log). */
  async list(): Promise<{ apps: CatalogueApp[] }> {
    const entries = await this.library.catalogue(true)
    const ids = entries.map((app) => String(app.appId))
    const added = ids.length
      ? await this.ctx.db
          .select({ targetId: operatorAudit.targetId, name: operators.name })
          .from(operatorAudit)
          .innerJoin(operators, eq(operators.id, operatorAudit.operatorId))
          .where(
            and(
              eq(operatorAudit.action, 'app.add'),
              eq(operatorAudit.targetType, 'app'),
              inArray(operatorAudit.targetId, ids),
            ),
          )
          .orderBy(asc(operatorAudit.id))
      : []
    const by = new Map<string, string>()
    for (const row of added)
      if (row.targetId && !by.has(row.targetId)) by.set(row.targetId, row.name)
    return { apps: entries.map((app) => ({ ...app, addedBy: by.get(String(app.appId)) ?? null })) }
  }

  /** Takes an APK into the catalogue (the same bytes again: the entry already there). */
  async add(actor: Actor, content: Buffer | null): Promise<AppItem> {
    const app = await this.library.upload(null, content)
    await this.audit.record(this.ctx.db, {
      operatorId: actor.operatorId,
      action: 'app.add',
      targetType: 'app',
      targetId: app.appId,
      before: null,
      after: { packageName: app.packageName, name: app.name, versionName: app.versionName },
      ip: actor.ip,
    })
    return app
  }

  async setHidden(actor: Actor, appId: number, hidden: boolean): Promise<AppItem> {
    const app = await this.library.setHidden(appId, hidden)
    await this.audit.record(this.ctx.db, {
      operatorId: actor.operatorId,
      action: hidden ? 'app.hide' : 'app.show',
      targetType: 'app',
      targetId: app.appId,
      before: { hidden: !hidden },
      after: { hidden, packageName: app.packageName },
      ip: actor.ip,
    })
    return app
  }
}
