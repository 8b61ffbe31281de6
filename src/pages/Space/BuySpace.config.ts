export default definePageConfig({ navigationBarTitleText: '购买空间' })
