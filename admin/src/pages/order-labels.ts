/** What the 订单 list and an order's page both show: their path, money as operators read it. */
export const ORDERS_PATH = '/admin/orders'

export const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`
