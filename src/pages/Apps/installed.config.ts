export default definePageConfig({ navigationBarTitleText: '云手机上的应用' })
