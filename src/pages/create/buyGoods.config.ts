export default definePageConfig({ navigationBarTitleText: '购买云机' })
