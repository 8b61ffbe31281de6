export default definePageConfig({
  navigationBarTitleText: '免费试玩',
  enableShareAppMessage: true,
})
