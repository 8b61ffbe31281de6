export default definePageConfig({ navigationBarTitleText: '云空间' })
