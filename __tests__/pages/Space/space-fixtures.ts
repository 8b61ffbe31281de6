import type { DeviceSpace, SpaceTask } from '@/types/api'

export const GB = 1024 ** 3

/** A finished backup of phone 7 (云机A), 1 GB. */
export const spaceTask = (over: Partial<SpaceTask> = {}): SpaceTask => ({
  id: 1,
  kind: 'backup',
  status: 'done',
  deviceId: 7,
  deviceName: '云机A',
  backupId: null,
  sizeBytes: GB,
  failCode: null,
  failReason: null,
  deleted: false,
  createdAt: Date.UTC(2026, 10, 20, 2, 0),
  finishedAt: Date.UTC(2026, 10, 20, 2, 1),
  ...over,
})

/** Phone 7's cloud space: 1 GB of 2 used by one finished backup, nothing running. */
export const deviceSpace = (over: Partial<DeviceSpace> = {}): DeviceSpace => ({
  deviceId: 7,
  deviceName: '云机A',
  quotaBytes: 2 * GB,
  usedBytes: GB,
  backups: [spaceTask()],
  running: null,
  lastRestore: null,
  ...over,
})
