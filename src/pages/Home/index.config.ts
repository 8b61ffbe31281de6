export default definePageConfig({
  navigationBarTitleText: '我的云机',
  navigationStyle: 'custom',
  enablePullDownRefresh: false,
})
