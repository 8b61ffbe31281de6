export default definePageConfig({ navigationBarTitleText: '转移云机' })
