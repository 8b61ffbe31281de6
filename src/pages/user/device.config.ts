export default definePageConfig({ navigationBarTitleText: '选择云机' })
