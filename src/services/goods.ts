/** Catalogue calls (docs/cloud-phones.md "Calls": /CommodityGroup/*). */
import type {
  Goods,
  GoodsLevelGroup,
  GoodsListQuery,
  Quote,
  QuoteBody,
  ZoneStock,
} from '../../types/api'
import { client } from './request'

/** Levels with their goods, each with prices and per-zone inventory status. */
export const getGoodsList = async (query: GoodsListQuery = {}) =>
  (await client.get<GoodsLevelGroup[]>('/CommodityGroup/getGoodsList', query)).data ?? []

export const getGoodsDetail = async (goodId: number) =>
  (await client.get<Goods>('/CommodityGroup/getGoodsDetail', { goodId })).data

export const getZones = async (goodId?: number) =>
  (await client.get<ZoneStock[]>('/CommodityGroup/getZones', goodId ? { goodId } : {})).data ?? []

/** A live quote while the buyer changes their choice: never behind the loading overlay (SPEC 7). */
export const getGoodPrice = async (body: QuoteBody) =>
  (await client.post<Quote>('/CommodityGroup/getGoodPrice', body, { loading: false })).data

export const goodsApi = { getGoodsList, getGoodsDetail, getZones, getGoodPrice }
export type GoodsApi = typeof goodsApi
