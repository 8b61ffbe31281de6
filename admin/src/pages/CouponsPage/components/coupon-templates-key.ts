/** The templates' query: the page reads it, and a saved template or an issue reads it again. */
export const COUPON_TEMPLATES_KEY = ['couponTemplates']
