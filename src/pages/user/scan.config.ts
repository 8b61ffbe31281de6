export default definePageConfig({ navigationBarTitleText: '扫一扫' })
