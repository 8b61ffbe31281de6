import { Type, type Static } from '@sinclair/typebox'

export const GroupId = Type.Integer({ minimum: 1 })

export const DeviceGroup = Type.Object({
  groupId: Type.Integer(),
  name: Type.String(),
  sort: Type.Integer(),
  /** Phones in the group (released ones not counted). */
  deviceCount: Type.Integer(),
})
export type DeviceGroup = Static<typeof DeviceGroup>

export const GroupList = Type.Object({
  /** In the user's order. */
  groups: Type.Array(DeviceGroup),
  /** Phones in no group (未分组). */
  ungroupedCount: Type.Integer(),
  totalCount: Type.Integer(),
})
export type GroupList = Static<typeof GroupList>

/** Names are checked (1–20 characters after trimming) with a clear message, not by the schema. */
export const GroupName = Type.String({ maxLength: 200 })

export const CreateGroupBody = Type.Object({
  name: GroupName,
  /** Phones the new group takes at once (新建分组并移入), in the same transaction. */
  deviceIds: Type.Optional(Type.Array(Type.Integer(), { maxItems: 1000 })),
})
export type CreateGroupBody = Static<typeof CreateGroupBody>

export const RenameGroupBody = Type.Object({ groupId: GroupId, name: GroupName })
export type RenameGroupBody = Static<typeof RenameGroupBody>

export const DeleteGroupBody = Type.Object({ groupId: GroupId })
export type DeleteGroupBody = Static<typeof DeleteGroupBody>

export const DeleteGroupResult = Type.Object({ movedDevices: Type.Integer() })
export type DeleteGroupResult = Static<typeof DeleteGroupResult>

export const SortGroupsBody = Type.Object({
  /** Every group of the user, first to last. */
  groupIds: Type.Array(GroupId, { maxItems: 500 }),
})
export type SortGroupsBody = Static<typeof SortGroupsBody>

export const MoveDevicesBody = Type.Object({
  deviceIds: Type.Array(Type.Integer(), { maxItems: 1000 }),
  /** 0 = 未分组. */
  groupId: Type.Integer({ minimum: 0 }),
})
export type MoveDevicesBody = Static<typeof MoveDevicesBody>

export const MoveDevicesResult = Type.Object({ moved: Type.Integer() })
export type MoveDevicesResult = Static<typeof MoveDevicesResult>
