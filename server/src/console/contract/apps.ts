import { Type, type Static } from '@sinclair/typebox'
import { AppItem } from '../../contract/app'

/** 应用库: the operators' catalogue of apps, hidden ones too. */
export const CatalogueAppList = Type.Object({ apps: Type.Array(AppItem) })
export type CatalogueAppList = Static<typeof CatalogueAppList>

export const HideAppBody = Type.Object({
  appId: Type.Integer({ minimum: 1 }),
  /** true: users no longer see it (installs made from it keep its name); false: shown again. */
  hidden: Type.Boolean(),
})
export type HideAppBody = Static<typeof HideAppBody>

export type { AppItem } from '../../contract/app'
