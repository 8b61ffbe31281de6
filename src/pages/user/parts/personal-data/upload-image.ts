import Taro from '@tarojs/taro'
import { uploadFile } from '@/api/user'

const MAX_BYTES = 2 * 1024 * 1024

/** Pick one image (compressed) and upload it → its file path; undefined when the user cancels. */
export async function chooseAndUploadImage(): Promise<string | undefined> {
  let picked: Taro.chooseImage.SuccessCallbackResult
  try {
    picked = await Taro.chooseImage({
      count: 1,
      sizeType: ['compressed'],
      sourceType: ['album', 'camera'],
    })
  } catch (error) {
    if (/cancel/i.test((error as { errMsg?: string })?.errMsg ?? '')) return undefined
    throw error
  }
  const file = picked.tempFiles?.[0]
  if (file && file.size > MAX_BYTES) throw new Error('图片不能超过2MB，请重新选择')
  const path = picked.tempFilePaths[0]
  if (!path) return undefined
  return (await uploadFile(path)).path
}
