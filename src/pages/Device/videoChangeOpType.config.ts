export default definePageConfig({ navigationBarTitleText: '升级视频定制版' })
