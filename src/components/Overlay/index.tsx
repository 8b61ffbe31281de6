/**
 * Small overlays for the tab pages: a bottom sheet of choices, a centred panel and a dialog.
 *
 * NutUI's ActionSheet, Popup and Dialog would do, but they bring Popup, Overlay and react-transition-group
 * with them, about 44 KiB of script and styles in the mini-program's main package, which the tab pages
 * share and which has a 600 KiB budget (docs/performance.md). These are plain Views with a CSS
 * animation; pages in sub-packages keep using NutUI's.
 */
import { useEffect, useState, type ReactNode } from 'react'
import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { KEYBOARD_SCROLLABLE } from '@/platform/a11y'
import { errorMessage } from '@/runtime/feedback'
import styles from './index.module.scss'

export function BottomSheet({
  visible,
  title,
  options,
  onSelect,
  onCancel,
}: {
  visible: boolean
  title?: string
  options: string[]
  onSelect: (index: number) => void
  onCancel: () => void
}) {
  if (!visible) return null
  return (
    <View className={styles.layer}>
      <View className={styles.mask} onClick={onCancel} />
      <View className={styles.sheet} role="dialog" aria-modal="true" aria-label={title ?? '请选择'}>
        {title && <View className={styles.sheetTitle}>{title}</View>}
        <View className={styles.sheetOptions} {...KEYBOARD_SCROLLABLE}>
          {options.map((option, index) => (
            <View
              key={`${index}-${option}`}
              className={styles.sheetOption}
              role="button"
              onClick={() => onSelect(index)}
            >
              {option}
            </View>
          ))}
        </View>
        <View className={styles.sheetCancel} role="button" onClick={onCancel}>
          取消
        </View>
      </View>
    </View>
  )
}

/** A centred panel over a mask; tapping the mask or ✕ (when `closeable`) closes it. */
export function CentredPanel({
  label,
  closeable = false,
  onClose,
  children,
}: {
  label?: string
  closeable?: boolean
  onClose: () => void
  children: ReactNode
}) {
  return (
    <View className={styles.layer}>
      <View className={styles.mask} onClick={onClose} />
      <View className={styles.panel} role="dialog" aria-modal="true" aria-label={label}>
        {closeable && (
          <View className={styles.close} role="button" aria-label="关闭" onClick={onClose}>
            ✕
          </View>
        )}
        {children}
      </View>
    </View>
  )
}

/**
 * A dialog with a title and 确定 (and 取消 when `cancelText` is given). `onConfirm` may be async: the
 * dialog closes when it resolves and stays open when it rejects, showing the rejection's message in
 * the dialog above its buttons. Callers don't toast inside a dialog: the mini-program's toast sits in
 * the middle of the screen, over the dialog's buttons; one still showing when the dialog
 * opens goes (not the loading overlay: noConflict).
 */
export function DialogBox({
  visible,
  title,
  children,
  confirmText = '确定',
  cancelText,
  onConfirm,
  onClose,
}: {
  visible: boolean
  title?: string
  children: ReactNode
  confirmText?: string
  cancelText?: string
  onConfirm: () => unknown
  onClose: () => void
}) {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState('')
  useEffect(() => {
    if (visible) void Taro.hideToast({ noConflict: true })
  }, [visible])
  if (!visible) return null
  const close = () => {
    setProblem('')
    onClose()
  }
  const confirm = async () => {
    if (busy) return
    setBusy(true)
    setProblem('')
    try {
      await onConfirm()
      close()
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <CentredPanel label={title} onClose={close}>
      <View className={styles.dialog}>
        {title && <View className={styles.dialogTitle}>{title}</View>}
        <View className={styles.dialogBody}>{children}</View>
        {problem && (
          <View className={styles.dialogProblem} role="alert">
            {problem}
          </View>
        )}
        <View className={styles.dialogButtons}>
          {cancelText && (
            <Button className={styles.dialogButton} onClick={close}>
              {cancelText}
            </Button>
          )}
          <Button
            className={styles.dialogButton}
            type="primary"
            loading={busy}
            onClick={() => void confirm()}
          >
            {confirmText}
          </Button>
        </View>
      </View>
    </CentredPanel>
  )
}
