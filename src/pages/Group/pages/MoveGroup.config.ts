export default definePageConfig({ navigationBarTitleText: '移动分组' })
