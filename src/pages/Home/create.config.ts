export default definePageConfig({ navigationBarTitleText: '创建云机' })
