export default definePageConfig({ navigationBarTitleText: '权限管理' })
