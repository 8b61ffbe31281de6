/** Device/transfer (docs/cloud-phones.md "Transfer"): moving phones to another account. */
import type {
  TransferDevicesBody,
  TransferDirection,
  TransferRecord,
  TransferResult,
} from '@/types/api'
import { client } from '@/runtime/request'

/** Rejects with the whole body on 1330 (data.devices: which phones cannot move and why). */
export const transferDevices = async (body: TransferDevicesBody) =>
  (await client.post<TransferResult>('/device/transfer', body, { loading: '正在转移' })).data

export const listTransfers = (direction: TransferDirection, page: number, rows?: number) =>
  client.fetchPage<TransferRecord>({
    url: '/device/transfer/list',
    page,
    rows,
    params: { direction },
  })
