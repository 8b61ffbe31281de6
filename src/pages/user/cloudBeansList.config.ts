export default definePageConfig({ navigationBarTitleText: '云豆明细' })
