export default definePageConfig({ navigationBarTitleText: '扫码结果' })
