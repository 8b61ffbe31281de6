/** Catalogue calls (docs/cloud-phones.md "Calls": /CommodityGroup/*). */
import type {
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  Quote,
  QuoteBody,
  ZoneStock,
} from '@/types/api'
import { client } from '@/runtime/request'

/** Levels with their goods, each with prices and per-zone inventory status. */
export const getGoodsList = async (query: GoodsListQuery = {}) =>
  (await client.get<GoodsLevelGroup[]>('/CommodityGroup/getGoodsList', query)).data ?? []

/** How long a catalogue asked for at start-up still counts as fresh for 创建云机's first load. */
const PREFETCH_FRESH_MS = 10_000
let prefetched: { at: number; list: Promise<GoodsLevelGroup[]> } | null = null

/**
 * H5 opened on 创建云机 (app.tsx): ask for the catalogue as the app starts, while the page's own
 * script is still on its way, instead of after it has arrived and run.
 */
export function prefetchGoodsList(now = Date.now()) {
  prefetched = { at: now, list: getGoodsList() }
  prefetched.list.catch(() => undefined) // the page reports a failure when it takes the list
}

/** The catalogue prefetched at start-up, once and while fresh; otherwise a new request. */
export function takeGoodsList(now = Date.now()) {
  const taken = prefetched
  prefetched = null
  return taken && now - taken.at < PREFETCH_FRESH_MS ? taken.list : getGoodsList()
}

export const getGoodsDetail = async (goodId: number) =>
  (await client.get<Goods>('/CommodityGroup/getGoodsDetail', { goodId })).data

export const getZones = async (goodId?: number) =>
  (await client.get<ZoneStock[]>('/CommodityGroup/getZones', goodId ? { goodId } : {})).data ?? []

/** A live quote while the buyer changes their choice: never behind the loading overlay (SPEC 7). */
export const getGoodPrice = async (body: QuoteBody) =>
  (await client.post<Quote>('/CommodityGroup/getGoodPrice', body, { loading: false })).data

export const goodsApi = { getGoodsList, getGoodsDetail, getZones, getGoodPrice }
export type GoodsApi = typeof goodsApi
