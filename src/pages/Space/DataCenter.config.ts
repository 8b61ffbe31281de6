export default definePageConfig({ navigationBarTitleText: '数据中心' })
