import { useEffect, useMemo, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button, Picker } from '@nutui/nutui-react-taro'
import { getDictList } from '@/api/common'
import { addWorkType, removeWorkType, type WorkTypeEntry } from '@/domain/work-types'
import { toast, toastError } from '@/runtime/feedback'
import {
  buildWorkTypeOptions,
  newWorkTypeKey,
  workTypeLabel,
  type DictItem,
} from './work-type-options'
import styles from './personal-data.module.scss'

export interface WorkTypeListProps {
  value: WorkTypeEntry[]
  onChange: (list: WorkTypeEntry[]) => void
}

/** Industry + work type pairs: pick from the dictionary, remove by key, duplicates refused (请勿重复添加). */
export default function WorkTypeList({ value, onChange }: WorkTypeListProps) {
  const [industries, setIndustries] = useState<DictItem[]>([])
  const [worktypes, setWorktypes] = useState<DictItem[]>([])
  const [picking, setPicking] = useState(false)
  const options = useMemo(
    () => buildWorkTypeOptions(industries, worktypes),
    [industries, worktypes],
  )

  useEffect(() => {
    Promise.all([getDictList('industry'), getDictList('worktype')])
      .then(([i, w]) => {
        setIndustries(i)
        setWorktypes(w)
      })
      .catch(toastError)
  }, [])

  const add = (values: (string | number | null)[]) => {
    setPicking(false)
    const [industryId, worktypeId] = values.map(Number)
    if (!industryId || !worktypeId) return
    const result = addWorkType(value, { industryId, worktypeId }, newWorkTypeKey)
    if (!result.ok) return toast(result.error)
    onChange(result.list)
  }

  return (
    <View className={styles.workTypes}>
      {value.map((entry) => {
        const label = workTypeLabel(entry, industries, worktypes)
        return (
          <View key={entry.key} className={styles.workType}>
            <Text>{label}</Text>
            <View
              className={styles.remove}
              role="button"
              aria-label={`删除 ${label}`}
              onClick={() => onChange(removeWorkType(value, entry.key))}
            >
              删除
            </View>
          </View>
        )
      })}
      <Button
        size="small"
        fill="outline"
        disabled={options.length === 0}
        onClick={() => setPicking(true)}
      >
        添加行业工种
      </Button>
      <Picker
        visible={picking}
        title="选择行业和工种"
        // a cascade is one column of options with children; start on the first pair so both columns show
        options={[options]}
        defaultValue={options[0] ? [options[0].value, options[0].children?.[0]?.value ?? null] : []}
        onConfirm={(_, values) => add(values)}
        onClose={() => setPicking(false)}
      />
    </View>
  )
}
