export default definePageConfig({ navigationBarTitleText: '协议详情' })
