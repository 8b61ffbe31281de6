/** What the layers above (routes, jobs, the console, the composition root) use of catalogue/. */
export { GoodsListService } from './goods-list'
export { GoodsService } from './goods-service'
export { ReferenceDataService } from './reference-data'
