import { useState } from 'react'
import Picture from '@/components/Picture'
import { Cell } from '@nutui/nutui-react-taro'
import { fileUrl } from '@/runtime/request'
import { toastError, toastSuccess } from '@/runtime/feedback'
import { chooseAndUploadImage } from './upload-image'
import styles from './personal-data.module.scss'

export interface AvatarCellProps {
  avatar: string
  onSave: (avatar: string) => Promise<unknown>
}

/** 头像: pick an image, upload it, save its path on the profile. */
export default function AvatarCell({ avatar, onSave }: AvatarCellProps) {
  const [busy, setBusy] = useState(false)

  const change = async () => {
    if (busy) return
    setBusy(true)
    try {
      const path = await chooseAndUploadImage()
      if (!path) return
      await onSave(path)
      toastSuccess('头像已更新')
    } catch (error) {
      toastError(error, '头像上传失败，请稍后重试')
    } finally {
      setBusy(false)
    }
  }

  return (
    <Cell
      title="头像"
      clickable
      onClick={change}
      aria-label="更换头像"
      extra={
        <Picture
          alt="头像"
          className={styles.avatar}
          src={avatar ? fileUrl(avatar) : require('@/assets/avatar.png')}
          mode="aspectFill"
        />
      }
    />
  )
}
