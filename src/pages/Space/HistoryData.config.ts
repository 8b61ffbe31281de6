export default definePageConfig({ navigationBarTitleText: '备份与恢复记录' })
