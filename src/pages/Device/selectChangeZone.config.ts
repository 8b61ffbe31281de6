export default definePageConfig({ navigationBarTitleText: '选择地区' })
