/** What the layers above (routes, jobs, the console, the composition root) use of wallet/. */
export { BeanService } from './bean-service'
export { UserFluxService } from './user-flux'
export { WalletService } from './wallet-service'
