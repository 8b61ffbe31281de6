/** Catalogue, orders, payments, beans and activation codes (docs/cloud-phones.md). */
export {}
