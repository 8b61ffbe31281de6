export default definePageConfig({ navigationBarTitleText: '消息设置' })
