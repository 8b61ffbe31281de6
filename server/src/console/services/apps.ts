/**
 * The console's 应用库: the catalogue of apps every user may pick from (services/apps/app-library.ts
 * reads each APK the same way as a user's upload). Adding and hiding are audited.
 */
import type { AppLibraryService, AppItem } from '../../services/apps'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'

export class AdminAppService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly library: AppLibraryService,
  ) {}

  async list(): Promise<{ apps: AppItem[] }> {
    return { apps: await this.library.catalogue(true) }
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
