export default definePageConfig({ navigationBarTitleText: '优惠券' })
