export default definePageConfig({ navigationBarTitleText: '续费' })
