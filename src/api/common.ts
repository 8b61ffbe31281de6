/** Config, dictionaries, usage log, customer service (docs/api.md). */
import type {
  CommonConfig,
  CustomerServiceInfo,
  DeviceStatusEntry,
  DictEntry,
  FeedbackBody,
  FeedbackTicket,
  SaveUsageLogBody,
} from '@/types/api'
import { DICT_CACHE_MS } from '@/constants/limits'
import { createTtlCache } from '@/runtime/cache'
import { client } from '@/runtime/request'
import type { RequestClient } from '@/runtime/request-client'

export type DictType = 'industry' | 'worktype'

/** A dictionary entry as pickers want it: label is the entry's name. */
export interface DictOption {
  label: string
  value: string
  id: number
  parentId: number | null
}

export const toDictOption = (entry: DictEntry): DictOption => ({
  label: entry.name,
  value: entry.value,
  id: entry.id,
  parentId: entry.parentId,
})

/** Builds the common service on a request client and a clock (tests inject both). */
export function createCommonService(http: RequestClient, now: () => number) {
  const dictCache = createTtlCache<DictOption[]>(DICT_CACHE_MS, now)
  const statusCache = createTtlCache<DeviceStatusEntry[]>(DICT_CACHE_MS, now)
  const configCache = createTtlCache<CommonConfig>(DICT_CACHE_MS, now)

  return {
    /**
     * The same for everyone, so cached like the dictionaries (5 minutes): login and each return to
     * the app read it through here. `quiet`: a background refresh, no loading overlay.
     */
    getCommonConfig: (options: { quiet?: boolean } = {}) =>
      configCache.get('all', async () => {
        const body = await http.get<CommonConfig>('/configure/getCommonConfig', undefined, {
          loading: options.quiet ? false : '加载中',
        })
        return body.data
      }),

    /** Cached for 5 minutes per dictionary type. */
    getDictList: (dictType: DictType) =>
      dictCache.get(dictType, async () => {
        const body = await http.get<DictEntry[]>('/dict/getDictList', { dictType })
        return (body.data ?? []).map(toDictOption)
      }),

    /** Cloud-phone status config list, cached for 5 minutes. */
    getDeviceStatusList: () =>
      statusCache.get('all', async () => {
        const body = await http.get<DeviceStatusEntry[]>('/dict/getDeviceStatusList')
        return body.data ?? []
      }),

    clearDictCache: () => {
      dictCache.clear()
      statusCache.clear()
      configCache.clear()
    },

    saveUserUsageLog: async (body: SaveUsageLogBody) => {
      await http.post<null>('/userUsageLog/saveUserUsageLog', body)
    },

    getCustomerServiceUrl: async () =>
      (await http.get<CustomerServiceInfo>('/customer/customerService/getUrl')).data,

    submitFeedback: async (body: FeedbackBody) =>
      (await http.post<null>('/customer/feedback', body)).data,

    listFeedback: (page: number, rows?: number) =>
      http.fetchPage<FeedbackTicket>({ url: '/customer/feedback/list', page, rows }),
  }
}

export type CommonApi = ReturnType<typeof createCommonService>

export const commonApi: CommonApi = createCommonService(client, () => Date.now())

export const {
  getCommonConfig,
  getDictList,
  getDeviceStatusList,
  saveUserUsageLog,
  getCustomerServiceUrl,
  submitFeedback,
  listFeedback,
} = commonApi
