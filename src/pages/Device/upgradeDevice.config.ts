export default definePageConfig({ navigationBarTitleText: '系统更新' })
