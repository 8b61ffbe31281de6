export default definePageConfig({ navigationBarTitleText: '授权管理' })
