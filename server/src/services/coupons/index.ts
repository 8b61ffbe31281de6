/** What the layers above (routes, jobs, the console, the composition root) use of coupons/. */
export { CouponService } from './coupon-service'
