export default definePageConfig({ navigationBarTitleText: '我的云豆' })
