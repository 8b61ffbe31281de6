import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button, Cell, Tag } from '@nutui/nutui-react-taro'
import FormRow from '@/components/FormRow'
import platform from '@/platform'
import type { WorkTypeEntry } from '@/domain/work-types'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import type { CompanyInfo, UpdateCompanyInfoBody, UserInfo, WorkType } from '@/types/api'
import WorkTypeList from './WorkTypeList'
import { withKeys } from './work-type-options'
import styles from './personal-data.module.scss'

export interface CompanySectionProps {
  /** 0 none, 1 under review, 2 verified, 3 rejected: an operator verifies every company. */
  companyStatus: UserInfo['companyStatus']
  company: CompanyInfo | null
  workTypes: WorkType[]
  onSave: (body: UpdateCompanyInfoBody) => Promise<UserInfo>
}

const STATUS_TAGS = {
  1: { type: 'warning', text: '审核中' },
  2: { type: 'primary', text: '企业用户' },
  3: { type: 'danger', text: '未通过审核' },
} as const

const isWeapp = process.env.TARO_ENV === 'weapp'

/** 企业认证: company name, address (map pick in the mini-program, typed on H5) and industry/work types. */
export default function CompanySection({
  companyStatus,
  company,
  workTypes,
  onSave,
}: CompanySectionProps) {
  const isCompany = companyStatus === 2
  const [open, setOpen] = useState(companyStatus !== 0)
  const [companyName, setCompanyName] = useState(company?.companyName ?? '')
  const [address, setAddress] = useState(company?.address ?? '')
  const [coords, setCoords] = useState({
    latitude: company?.latitude,
    longitude: company?.longitude,
  })
  const [list, setList] = useState<WorkTypeEntry[]>(() => withKeys(workTypes))
  const [saving, setSaving] = useState(false)

  if (!open) {
    return (
      <Cell.Group title="企业认证">
        <Cell
          title="认证为企业用户"
          description="填写公司信息和所属行业，享受企业采购服务"
          clickable
          onClick={() => setOpen(true)}
          extra="去认证"
        />
      </Cell.Group>
    )
  }

  const pickAddress = async () => {
    try {
      const place = await platform.chooseLocation()
      setAddress([place.address, place.name].filter(Boolean).join(' '))
      setCoords({ latitude: place.latitude, longitude: place.longitude })
    } catch (error) {
      if (!/cancel/i.test((error as { errMsg?: string })?.errMsg ?? ''))
        toastError(error, '选择地址失败')
    }
  }

  const save = async () => {
    const name = companyName.trim()
    if (!name) return toast('请输入公司名称')
    if (!address.trim()) return toast(isWeapp ? '请选择公司地址' : '请输入公司地址')
    setSaving(true)
    try {
      const saved = await onSave({
        companyName: name,
        address: address.trim(),
        ...(coords.latitude != null && coords.longitude != null
          ? { latitude: coords.latitude, longitude: coords.longitude }
          : {}),
        workTypes: list.map(({ industryId, worktypeId }) => ({
          industryId: Number(industryId),
          worktypeId: Number(worktypeId),
        })),
      })
      toastSuccess(
        saved.companyStatus === 2 ? '企业信息已保存' : '已提交企业认证，审核通过后即可使用企业采购',
      )
    } catch (error) {
      toastError(error)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Cell.Group title="企业认证">
      <View className={styles.form}>
        {companyStatus !== 0 && (
          <Tag type={STATUS_TAGS[companyStatus].type} plain>
            {STATUS_TAGS[companyStatus].text}
          </Tag>
        )}
        <FormRow
          label="公司名称"
          maxLength={100}
          placeholder="请输入公司名称"
          value={companyName}
          onChange={setCompanyName}
        />
        {isWeapp ? (
          <View
            className={styles.row}
            role="button"
            aria-label="选择公司地址"
            onClick={pickAddress}
          >
            <Text className={styles.label}>公司地址</Text>
            <Text className={address ? styles.value : styles.placeholder}>
              {address || '点击在地图上选择'}
            </Text>
          </View>
        ) : (
          <FormRow
            label="公司地址"
            maxLength={200}
            placeholder="请输入公司详细地址"
            value={address}
            onChange={setAddress}
          />
        )}
        <Text className={styles.label}>行业工种</Text>
        <WorkTypeList value={list} onChange={setList} />
        <Button type="primary" block loading={saving} onClick={save} className={styles.submit}>
          {isCompany ? '保存企业信息' : '提交企业认证'}
        </Button>
      </View>
    </Cell.Group>
  )
}
