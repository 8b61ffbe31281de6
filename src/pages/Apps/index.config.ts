export default definePageConfig({ navigationBarTitleText: '应用管理' })
