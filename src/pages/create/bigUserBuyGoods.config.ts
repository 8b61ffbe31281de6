export default definePageConfig({ navigationBarTitleText: '企业采购' })
