import { useState } from 'react'
import { useLoad } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { Button, Cell, Switch } from '@nutui/nutui-react-taro'
import { ariaRole } from '@/platform/a11y'
import { getFloatingBall, saveFloatingBall } from '@/api/engagement'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import {
  FLOATING_BALL_OPACITY,
  FLOATING_BALL_SHORTCUTS,
  floatingBallProblem,
  orderedShortcuts,
} from '@/domain/floating-ball'
import type { FloatingBallSettings } from '@/types/api'
import styles from './floatingBall.module.scss'

const OPACITY_STEP = 10
const SIDES = [
  { value: 'left', label: '左侧' },
  { value: 'right', label: '右侧' },
] as const

/** Settings of the floating control ball on the phone control page, saved to the account. */
export default function FloatingBall() {
  const [form, setForm] = useState<FloatingBallSettings>()
  const [saving, setSaving] = useState(false)

  useLoad(() => {
    getFloatingBall().then(setForm).catch(toastError)
  })

  if (!form) return <View className={styles.page} />
  const change = (patch: Partial<FloatingBallSettings>) => setForm({ ...form, ...patch })
  const { min, max } = FLOATING_BALL_OPACITY
  const toggleShortcut = (s: string) =>
    change({
      shortcuts: form.shortcuts.includes(s)
        ? form.shortcuts.filter((x) => x !== s)
        : orderedShortcuts([...form.shortcuts, s]),
    })

  const save = async () => {
    const problem = floatingBallProblem(form)
    if (problem) {
      toast(problem)
      return
    }
    setSaving(true)
    try {
      setForm(await saveFloatingBall(form))
      toastSuccess('已保存')
    } catch (error) {
      toastError(error)
    } finally {
      setSaving(false)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.preview} aria-label="悬浮球预览">
        {form.visible ? (
          <View
            className={styles.ball}
            style={{
              opacity: form.opacity / 100,
              [form.side]: '24px',
            }}
          />
        ) : (
          <Text className={styles.hiddenTip}>悬浮球已隐藏</Text>
        )}
      </View>
      <Cell.Group>
        <Cell
          title="显示悬浮球"
          extra={
            <Switch
              {...ariaRole('switch')}
              ariaLabel="显示悬浮球"
              checked={form.visible}
              onChange={(visible) => change({ visible })}
            />
          }
        />
        <Cell
          title="位置"
          extra={
            <View className={styles.chips} role="radiogroup">
              {SIDES.map((side) => (
                <View
                  key={side.value}
                  role="radio"
                  aria-checked={form.side === side.value}
                  className={form.side === side.value ? styles.chipOn : styles.chip}
                  onClick={() => change({ side: side.value })}
                >
                  {side.label}
                </View>
              ))}
            </View>
          }
        />
        <Cell
          title="透明度"
          extra={
            <View className={styles.stepper}>
              <Button
                size="small"
                aria-label="降低透明度"
                disabled={form.opacity <= min}
                onClick={() => change({ opacity: Math.max(min, form.opacity - OPACITY_STEP) })}
              >
                −
              </Button>
              <Text className={styles.value}>{form.opacity}%</Text>
              <Button
                size="small"
                aria-label="提高透明度"
                disabled={form.opacity >= max}
                onClick={() => change({ opacity: Math.min(max, form.opacity + OPACITY_STEP) })}
              >
                +
              </Button>
            </View>
          }
        />
      </Cell.Group>
      <Text className={styles.section}>快捷功能</Text>
      <View className={styles.shortcuts}>
        {FLOATING_BALL_SHORTCUTS.map((s) => (
          <View
            key={s}
            role="checkbox"
            aria-checked={form.shortcuts.includes(s)}
            className={form.shortcuts.includes(s) ? styles.chipOn : styles.chip}
            onClick={() => toggleShortcut(s)}
          >
            {s}
          </View>
        ))}
      </View>
      <Text className={styles.tip}>设置保存到账号，打开云手机控制页时生效</Text>
      <View className={styles.footer}>
        <Button type="primary" block loading={saving} onClick={save}>
          保存
        </Button>
      </View>
    </View>
  )
}
