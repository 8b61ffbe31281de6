import { Type, type Static } from '@sinclair/typebox'
import { AppItem } from '../../contract/app'

/** A catalogue entry as the console shows it: the app, and the operator who added it. */
export const CatalogueApp = Type.Composite([
  AppItem,
  Type.Object({
    /** The name of the operator whose upload added it (the audit log's 添加应用); null: none recorded. */
    addedBy: Type.Union([Type.String(), Type.Null()]),
  }),
])
export type CatalogueApp = Static<typeof CatalogueApp>

/** 应用库: the operators' catalogue of apps, hidden ones too. */
export const CatalogueAppList = Type.Object({ apps: Type.Array(CatalogueApp) })
export type CatalogueAppList = Static<typeof CatalogueAppList>

export const HideAppBody = Type.Object({
  appId: Type.Integer({ minimum: 1 }),
  /** true: users no longer see it (installs made from it keep its name); false: shown again. */
  hidden: Type.Boolean(),
})
export type HideAppBody = Static<typeof HideAppBody>

export type { AppItem } from '../../contract/app'
