import { useDidShow } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Cell } from '@nutui/nutui-react-taro'
import { useStores } from '@/stores'
import { realNameAuth, updateCompanyInfo, updateUserInfo } from '@/api/user'
import { maskPhone } from '@/domain/formatters'
import AvatarCell from './parts/personal-data/AvatarCell'
import NicknameCell from './parts/personal-data/NicknameCell'
import RealNameSection from './parts/personal-data/RealNameSection'
import CompanySection from './parts/personal-data/CompanySection'
import styles from './personalData.module.scss'

/** 个人资料: avatar, nickname, real-name verification and company details; each part saves itself. */
function PersonalData() {
  const { session } = useStores()
  const info = session.userInfo

  useDidShow(() => {
    session.loadUserInfo().catch(() => undefined)
  })

  // every save ends with a fresh profile, so the Mine tab and this page show what the server has
  const saveThen =
    <A, R>(call: (arg: A) => Promise<R>) =>
    async (arg: A): Promise<R> => {
      const saved = await call(arg)
      await session.loadUserInfo().catch(() => undefined)
      return saved
    }

  if (!info) return <View className={styles.page} />

  return (
    <View className={styles.page}>
      <Cell.Group>
        <AvatarCell
          avatar={info.avatar}
          onSave={saveThen((avatar: string) => updateUserInfo({ avatar }))}
        />
        <NicknameCell
          name={info.name}
          onSave={saveThen((name: string) => updateUserInfo({ name }))}
        />
        <Cell title="手机号" extra={maskPhone(info.mobilePhone)} />
      </Cell.Group>
      <RealNameSection
        verified={info.outerUserCheckStatus === 1}
        realName={info.realName}
        idCard={info.idCardMasked}
        onSubmit={saveThen(realNameAuth)}
      />
      <CompanySection
        key={info.userId}
        companyStatus={info.companyStatus}
        company={info.company}
        workTypes={info.workTypes}
        onSave={saveThen(updateCompanyInfo)}
      />
    </View>
  )
}

export default observer(PersonalData)
