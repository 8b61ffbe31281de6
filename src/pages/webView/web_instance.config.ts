export default definePageConfig({
  navigationBarTitleText: '云手机',
  navigationStyle: 'custom',
})
