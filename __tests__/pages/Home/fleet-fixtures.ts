/** Phones as the API returns them, for fleet tests. */
import type { Device } from '@/types/api'

export function device(over: Partial<Device> = {}): Device {
  return {
    deviceId: 1,
    name: '云手机-0001',
    level: 3,
    levelName: '旗舰版',
    goodId: 11,
    goodsName: '旗舰版 8核8G',
    configName: '8核 8G 128G',
    zoneId: 1,
    zoneName: '华东-上海',
    status: 1,
    statusName: '运行中',
    androidVersion: 'B',
    imageType: 1,
    expireAt: Date.now() + 10 * 86_400_000,
    groupId: null,
    groupName: null,
    coverUrl: null,
    coverUpdatedAt: null,
    permissions: [],
    videoEdition: false,
    model: null,
    modelName: null,
    imageVersion: 'v1',
    busy: false,
    busyOp: null,
    busyText: null,
    failReason: null,
    createdAt: 0,
    autoRenew: null,
    grant: null,
    ...over,
  }
}

export const page = (records: Device[], p = 1, totalPage = 1, total = records.length) => ({
  records,
  page: p,
  totalPage,
  total,
})
