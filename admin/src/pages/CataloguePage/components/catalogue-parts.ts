/** What 商品与价格's table and dialogs share: how a goods is named, and 元 fields sent in fen. */
import { androidVersionLabel, type AndroidVersion } from '#domain/catalogue'
import { MAX_PRICE_FEN, yuanToFen } from '#domain/console/catalogue-edits'
import type { AdminGoodsRow } from '#console-contract/catalogue'

/** A goods as the dialogs name it: its name and system tell the seeded goods apart. */
export const goodsName = (row: AdminGoodsRow) =>
  `${row.name}（${androidVersionLabel(row.androidVersion as AndroidVersion)}）`

/** 元 inputs: two decimals, within the rules' range. */
export const yuanProps = {
  precision: 2,
  min: 0.01,
  max: MAX_PRICE_FEN / 100,
  addonAfter: '元',
  style: { width: '100%' },
}

/** A form's 元 field to fen: empty is null; the InputNumber already holds at most two decimals. */
export const fenOf = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : yuanToFen(value.toFixed(2))

/** What each edit does when saved or refused (the page reads the catalogue again). */
export interface CatalogueMutationOptions {
  onSuccess: () => void
  onError: (error: unknown) => void
}
