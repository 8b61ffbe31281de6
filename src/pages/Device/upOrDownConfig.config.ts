export default definePageConfig({ navigationBarTitleText: '升降配' })
