export default definePageConfig({ navigationBarTitleText: '选择机型' })
