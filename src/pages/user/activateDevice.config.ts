export default definePageConfig({ navigationBarTitleText: '激活码' })
