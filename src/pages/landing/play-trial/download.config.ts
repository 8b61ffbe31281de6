export default definePageConfig({
  navigationBarTitleText: '下载游戏',
  enableShareAppMessage: true,
})
