export default definePageConfig({ navigationBarTitleText: '联系客服' })
