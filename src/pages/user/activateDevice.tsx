import { useCallback, useState } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { ActionSheet, Button, Input } from '@nutui/nutui-react-taro'
import type { ActivateResult, Goods, MyCode } from '@/types/api'
import PagedList from '@/components/PagedList'
import { toast, toastError, toastSuccess } from '@/runtime/feedback'
import { formatDateTime } from '@/domain/formatters'
import { normaliseActivationCode, validateActivationCode } from '@/domain/activation-codes'
import { routeIfPresent } from '@/constants/routes'
import { activateCode, listMyCodes } from '@/api/activation'
import { getGoodsList } from '@/api/goods'
import { navigate } from '@/runtime/navigation'
import { useStores } from '@/stores'
import styles from './activateDevice.module.scss'

type Mode = 'new' | 'renew'

function resultText(result: ActivateResult): string {
  return result.kind === 'new'
    ? '激活成功，新云手机正在创建，稍后可在“我的云机”中使用'
    : `续费成功，云手机到期时间延长至${formatDateTime(result.expireAt).slice(0, 16)}`
}

/** Activate a code (a new phone, or renew one of mine) and see the codes I bought. */
function ActivateDevice() {
  const { fleet } = useStores()
  // a scanned activation QR (user/scanResult) arrives with the code filled in
  const [code, setCode] = useState(useRouter().params.code ?? '')
  const [mode, setMode] = useState<Mode>('new')
  const [result, setResult] = useState<ActivateResult | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const [reloadKey, setReloadKey] = useState(0)
  const [goods, setGoods] = useState<Goods[] | null>(null)
  const picked = fleet.pickedDevice
  const buyRoute = routeIfPresent('buyGoods')

  // coming back from user/device with a phone chosen
  useDidShow(() => {
    if (fleet.pickedDevice) setMode('renew')
  })

  const submit = async () => {
    const problem = validateActivationCode(code)
    if (problem) return toast(problem)
    if (mode === 'renew' && !picked) return toast('请选择要续费的云手机')
    setSubmitting(true)
    try {
      const outcome = await activateCode({
        code: normaliseActivationCode(code),
        renewDeviceId: mode === 'renew' ? picked?.deviceId : undefined,
      })
      // the code's goods sold out (1017): the code stays unused, the server says what it can do
      if (!outcome.ok) return toast(outcome.msg)
      const answer = outcome.data
      setResult(answer)
      setCode('')
      toastSuccess(answer.kind === 'new' ? '激活成功' : '续费成功')
      setReloadKey((k) => k + 1)
    } catch (error) {
      toastError(error)
    } finally {
      setSubmitting(false)
    }
  }

  const chooseGoods = async () => {
    try {
      const levels = await getGoodsList()
      setGoods(levels.flatMap((level) => level.goods))
    } catch (error) {
      toastError(error)
    }
  }

  const load = useCallback((page: number, rows: number) => listMyCodes(page, rows), [])

  const copy = (item: MyCode) =>
    Taro.setClipboardData({ data: item.code })
      .then(() => toastSuccess('已复制'))
      .catch(() => toast('复制失败，请长按激活码手动复制'))

  return (
    <View className={styles.page}>
      <View className={styles.form}>
        <View className={styles.modes} role="radiogroup" aria-label="激活方式">
          {(['new', 'renew'] as Mode[]).map((m) => (
            <View
              key={m}
              role="radio"
              aria-checked={mode === m}
              className={mode === m ? styles.modeActive : styles.mode}
              onClick={() => setMode(m)}
            >
              {m === 'new' ? '激活新云机' : '续费已有云机'}
            </View>
          ))}
        </View>
        <Input
          className={styles.codeInput}
          value={code}
          onChange={setCode}
          maxLength={24}
          placeholder="请输入16位激活码"
          aria-label="激活码"
        />
        {mode === 'renew' && (
          <View
            className={styles.picker}
            role="button"
            aria-label="选择要续费的云手机"
            onClick={() => void navigate('chooseDevice')}
          >
            <Text className={picked ? undefined : styles.placeholder}>
              {picked ? picked.name : '选择要续费的云手机'}
            </Text>
            <Text className={styles.placeholder}>›</Text>
          </View>
        )}
        <Button type="primary" block loading={submitting} onClick={submit}>
          {mode === 'new' ? '立即激活' : '激活并续费'}
        </Button>
        {result && (
          <View className={styles.result} role="status">
            <Text>{resultText(result)}</Text>
            {result.kind === 'new' && (
              <Button size="small" onClick={() => void navigate('home')}>
                查看我的云机
              </Button>
            )}
          </View>
        )}
      </View>
      <View className={styles.sectionHead}>
        <Text>我的激活码</Text>
        {buyRoute && (
          <Button size="small" fill="outline" onClick={chooseGoods}>
            购买激活码
          </Button>
        )}
      </View>
      <PagedList<MyCode>
        className={styles.list}
        load={load}
        reloadKey={reloadKey}
        keyOf={(item) => item.code}
        emptyText="还没有购买过激活码"
        renderItem={(item) => (
          <View className={styles.code}>
            <View className={styles.codeRow}>
              <Text className={styles.codeText}>{item.code}</Text>
              <Button size="small" onClick={() => void copy(item)}>
                复制
              </Button>
            </View>
            <View className={styles.codeRow}>
              <Text className={styles.codeMeta}>
                {item.goodsName} · {item.durationLabel}
              </Text>
              <Text className={item.status === 1 ? styles.used : styles.unused}>
                {item.statusText}
              </Text>
            </View>
          </View>
        )}
      />
      <ActionSheet
        visible={goods !== null}
        title="选择激活码的云机配置"
        options={(goods ?? []).map((g) => ({ name: g.name }))}
        cancelText="取消"
        onCancel={() => setGoods(null)}
        onSelect={(_, index) => {
          const chosen = goods?.[index]
          setGoods(null)
          if (chosen && buyRoute)
            void navigate(buyRoute, { goodId: chosen.goodId, purpose: 'activationCode' })
        }}
      />
    </View>
  )
}

export default observer(ActivateDevice)
