export default definePageConfig({ navigationBarTitleText: '邀请好友', enableShareAppMessage: true })
