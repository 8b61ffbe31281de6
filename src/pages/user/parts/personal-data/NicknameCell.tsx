import { useState } from 'react'
import { View } from '@tarojs/components'
import { Button, Cell, Input } from '@nutui/nutui-react-taro'
import { validateName } from '@/domain/validators'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import styles from './personal-data.module.scss'

export interface NicknameCellProps {
  name: string
  onSave: (name: string) => Promise<unknown>
}

/** 昵称: shown as a cell; tap to edit inline, 1–20 characters. */
export default function NicknameCell({ name, onSave }: NicknameCellProps) {
  const [draft, setDraft] = useState<string>()
  const [saving, setSaving] = useState(false)

  const save = async () => {
    const value = (draft ?? '').trim()
    const problem = validateName(value)
    if (problem) return toast(problem)
    setSaving(true)
    try {
      await onSave(value)
      toastSuccess('昵称已更新')
      setDraft(undefined)
    } catch (error) {
      toastError(error)
    } finally {
      setSaving(false)
    }
  }

  if (draft === undefined) {
    return <Cell title="昵称" clickable onClick={() => setDraft(name)} extra={name || '未设置'} />
  }
  return (
    <View className={styles.editRow}>
      <Input
        value={draft}
        onChange={setDraft}
        maxLength={20}
        placeholder="请输入昵称"
        aria-label="昵称"
      />
      <Button size="small" onClick={() => setDraft(undefined)}>
        取消
      </Button>
      <Button size="small" type="primary" loading={saving} onClick={save}>
        保存
      </Button>
    </View>
  )
}
