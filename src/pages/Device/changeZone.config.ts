export default definePageConfig({ navigationBarTitleText: '更换地区' })
