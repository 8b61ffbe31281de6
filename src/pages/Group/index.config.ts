export default definePageConfig({ navigationBarTitleText: '分组管理' })
