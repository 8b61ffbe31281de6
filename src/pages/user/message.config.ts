export default definePageConfig({ navigationBarTitleText: '消息中心' })
