export default definePageConfig({ navigationBarTitleText: '更换云机' })
