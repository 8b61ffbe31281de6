import { useState } from 'react'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { SearchBar } from '@nutui/nutui-react-taro'
import { BottomSheet } from '@/components/Overlay'
import type { InputProps } from '@tarojs/components'
import { SEARCH_PLACEHOLDER } from '@/constants/limits'
import { HomeViewType } from '@/domain/enums'
import { useStores } from '@/stores'
import { KEYWORD_MAX_LENGTH, UNGROUPED, VERSION_OPTIONS, VIEW_OPTIONS } from '@/domain/fleet-query'
import styles from './fleet.module.scss'

function Chip({ active, label, onClick }: { active: boolean; label: string; onClick: () => void }) {
  return (
    <View
      className={active ? styles.chipActive : styles.chip}
      role="button"
      aria-pressed={active}
      onClick={onClick}
    >
      {label}
    </View>
  )
}

/** One-of-several choice as a row of chips. */
function ChipGroup<V extends number>({
  label,
  options,
  value,
  onChange,
}: {
  label: string
  options: { label: string; value: V }[]
  value: V
  onChange: (value: V) => void
}) {
  return (
    <View className={styles.chips} role="group" aria-label={label}>
      {options.map((o) => (
        <Chip
          key={o.value}
          label={o.label}
          active={value === o.value}
          onClick={() => onChange(o.value)}
        />
      ))}
    </View>
  )
}

/** Group filter, search, version filter, view toggle, 紧凑 (the dense mode) and 多选 above the fleet. */
function FleetToolbar() {
  const { fleet } = useStores()
  const [groupSheet, setGroupSheet] = useState(false)
  const [keyword, setKeyword] = useState(fleet.keyword)

  const groupOptions = [
    { name: '全部分组', value: null as number | null },
    { name: `未分组（${fleet.ungroupedCount}）`, value: UNGROUPED },
    ...fleet.groups.map((g) => ({ name: `${g.name}（${g.deviceCount}）`, value: g.groupId })),
  ]
  const groupLabel = fleet.groupId === null ? '全部分组' : fleet.groupName(fleet.groupId || null)

  return (
    <View className={styles.toolbar}>
      <View className={styles.toolbarRow}>
        <View
          className={`${styles.groupPicker} drop-down`}
          role="button"
          aria-label={`分组筛选 ${groupLabel}`}
          onClick={() => setGroupSheet(true)}
        >
          {groupLabel}
        </View>
        <SearchBar
          className={styles.search}
          value={keyword}
          placeholder={SEARCH_PLACEHOLDER}
          maxLength={KEYWORD_MAX_LENGTH}
          inputProps={{ 'aria-label': '搜索云手机' } as Partial<InputProps>}
          onChange={(value) => setKeyword(value)}
          onSearch={(value) => fleet.setKeyword(value)}
          onClear={() => {
            setKeyword('')
            fleet.setKeyword('')
          }}
        />
      </View>
      <View className={styles.toolbarRow}>
        <ChipGroup
          label="版本筛选"
          options={VERSION_OPTIONS}
          value={fleet.version}
          onChange={fleet.setVersion}
        />
        <ChipGroup
          label="显示方式"
          options={VIEW_OPTIONS}
          value={fleet.viewType}
          onChange={fleet.setViewType}
        />
      </View>
      {fleet.viewType === HomeViewType.multi && (
        // its own row: beside the filters and views the chips would run off a 390 px screen
        <View className={styles.toolbarRow}>
          <View className={styles.fleetCount}>共{fleet.total}台</View>
          <View className={styles.chips}>
            <Chip label="紧凑" active={fleet.dense} onClick={() => fleet.setDense(!fleet.dense)} />
            {!fleet.selecting && fleet.total > 0 && (
              <Chip label="多选" active={false} onClick={fleet.startSelect} />
            )}
          </View>
        </View>
      )}
      <BottomSheet
        visible={groupSheet}
        title="选择分组"
        options={groupOptions.map((o) => o.name)}
        onCancel={() => setGroupSheet(false)}
        onSelect={(index) => {
          setGroupSheet(false)
          fleet.setGroup(groupOptions[index].value)
        }}
      />
    </View>
  )
}

export default observer(FleetToolbar)
