export default definePageConfig({ navigationBarTitleText: '悬浮球设置' })
