export default definePageConfig({ navigationBarTitleText: '云豆转包月' })
