import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { Image, Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { AppItem, AppList, DeviceGroup, InstallProgress, InstallResult } from '@/types/api'
import { APK_MAX_BYTES, INSTALL_STATUS_TEXT } from '@/domain/apps'
import { confirm, confirmDestructive, toast, toastError, toastSuccess } from '@/runtime/feedback'
import { BottomSheet } from '@/components/Overlay'
import { navigate } from '@/runtime/navigation'
import { fileUrl } from '@/runtime/request'
import platform from '@/platform'
import {
  deleteApp,
  getInstallProgress,
  getLatestInstall,
  installApp,
  listApps,
  listInstallResults,
  uploadApk,
  type InstallTarget,
} from '@/api/app'
import { listGroups } from '@/api/group'
import PhoneChooser from './PhoneChooser'
import styles from './apps.module.scss'

/** How often the page reads a running batch's progress. */
const POLL_MS = 2_000
/** Phones' results shown under a finished batch (failed and skipped first). */
const RESULT_ROWS = 20
/** 安装到…'s choices, in the sheet's order. */
const TARGETS = ['全部云机', '按分组', '选择云机'] as const

/**
 * 应用管理: the user's uploaded APKs and the operators' catalogue; 上传安装包 adds one (read by the server,
 * refused with its reason); 安装到… installs an app as one batch on 全部云机, one group's phones
 * (按分组, each with its count) or the phones ticked in 选择云机 (searched, paged as it scrolls), shown
 * as 安装中 n/N until every phone has its result, then each failed or skipped phone with why. Opened
 * while a batch runs (or within an hour of its end) it shows that batch; it reads nothing while hidden.
 */
export default function AppsPage() {
  const [apps, setApps] = useState<AppList | null>(null)
  const [batch, setBatch] = useState<InstallProgress | null>(null)
  const [results, setResults] = useState<InstallResult[]>([])
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  // 安装到…: the app whose target sheet is open, its groups once 按分组 read them, the phone chooser's app
  const [target, setTarget] = useState<AppItem | null>(null)
  const [groups, setGroups] = useState<{ app: AppItem; groups: DeviceGroup[] } | null>(null)
  const [choosing, setChoosing] = useState<AppItem | null>(null)

  // raised by each follow and each stop: an answer read for an earlier one is dropped (the page hid,
  // another batch started, a newer read is on its way)
  const generation = useRef(0)

  const load = useCallback(async () => {
    try {
      setApps(await listApps())
    } catch (error) {
      toastError(error)
    }
  }, [])

  const stopFollowing = useCallback(() => {
    generation.current += 1
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
  }, [])

  /** Shows a batch, reads it again every POLL_MS until it ends, then its failed and skipped phones. */
  const follow = useCallback(
    async (progress: InstallProgress) => {
      stopFollowing()
      const mine = generation.current
      const { installId } = progress
      setBatch(progress)
      if (!progress.finished) {
        setResults([])
        timer.current = setTimeout(async () => {
          try {
            const next = await getInstallProgress(installId)
            if (generation.current === mine) await follow(next)
          } catch (error) {
            toastError(error)
          }
        }, POLL_MS)
        return
      }
      try {
        const { records } = await listInstallResults(installId, 1, RESULT_ROWS)
        if (generation.current === mine) setResults(records)
      } catch (error) {
        toastError(error)
      }
    },
    [stopFollowing],
  )

  // opened (again) while a batch runs, started here or on another device: shown and followed
  const showLatest = useCallback(async () => {
    const mine = generation.current
    try {
      const latest = await getLatestInstall()
      if (latest && generation.current === mine) await follow(latest)
    } catch (error) {
      toastError(error)
    }
  }, [follow])

  useDidShow(() => {
    void load()
    void showLatest()
  })
  useDidHide(stopFollowing)
  useEffect(() => stopFollowing, [stopFollowing])

  const upload = async () => {
    let chosen
    try {
      chosen = await platform.chooseApk()
    } catch {
      return // cancelled
    }
    try {
      const app = await uploadApk(chosen.path)
      toastSuccess(`已添加${app.name}`)
      await load()
    } catch (error) {
      toastError(error)
    }
  }

  const install = async (app: AppItem, to: InstallTarget) => {
    try {
      await follow(await installApp(app.appId, to))
    } catch (error) {
      toastError(error)
    }
  }

  const pickTarget = async (app: AppItem, index: number) => {
    setTarget(null)
    const choice = TARGETS[index]
    if (choice === '全部云机') {
      if (await confirm('安装应用', `将「${app.name}」安装到你的全部云手机？`, '安装')) {
        await install(app, { all: true })
      }
    } else if (choice === '按分组') {
      try {
        const list = await listGroups()
        if (list.groups.length === 0) toast('还没有分组，可在首页多选云机后移动分组')
        else setGroups({ app, groups: list.groups })
      } catch (error) {
        toastError(error)
      }
    } else {
      setChoosing(app)
    }
  }

  const pickGroup = async (index: number) => {
    if (!groups) return
    const { app } = groups
    const group = groups.groups[index]
    setGroups(null)
    if (group.deviceCount === 0) {
      toast(`分组「${group.name}」没有云手机`)
      return
    }
    const question = `将「${app.name}」安装到分组「${group.name}」的${group.deviceCount}台云手机？`
    if (await confirm('安装应用', question, '安装')) await install(app, { groupId: group.groupId })
  }

  const installChosen = async (app: AppItem, deviceIds: number[]) => {
    setChoosing(null)
    await install(app, { deviceIds })
  }

  const remove = async (app: AppItem) => {
    if (
      !(await confirmDestructive(
        '删除应用',
        `从应用库删除「${app.name}」？已安装的云手机不受影响`,
        '删除',
      ))
    )
      return
    try {
      await deleteApp(app.appId)
      toastSuccess('已删除')
      await load()
    } catch (error) {
      toastError(error)
    }
  }

  const row = (app: AppItem) => (
    <View key={app.appId} className={styles.item} aria-label={app.name}>
      {app.iconUrl ? (
        <Image className={styles.icon} src={fileUrl(app.iconUrl)} mode="aspectFill" />
      ) : (
        <View className={styles.icon} />
      )}
      <View className={styles.info}>
        <Text className={styles.name}>{app.name}</Text>
        <Text className={styles.meta}>
          {app.versionName} · {app.packageName}
        </Text>
      </View>
      <View className={styles.actions}>
        <Button size="small" type="primary" aria-haspopup="dialog" onClick={() => setTarget(app)}>
          安装到…
        </Button>
        {app.source === 'mine' && (
          <Button size="small" onClick={() => void remove(app)}>
            删除
          </Button>
        )}
      </View>
    </View>
  )

  return (
    <View className={styles.page}>
      <View className={styles.upload}>
        <Button block type="primary" onClick={() => void upload()}>
          上传安装包
        </Button>
        <Text className={styles.hint}>
          APK 文件，不超过{APK_MAX_BYTES / 1024 / 1024}MB；上传后读取应用名称、包名和版本
        </Text>
        <Button
          block
          fill="outline"
          className={styles.byPhone}
          onClick={() => navigate('appsInstalled')}
        >
          云手机上的应用
        </Button>
      </View>

      {batch && (
        <View className={styles.progress} aria-label="安装进度">
          <Text>{batch.appName}</Text>
          <Text className={styles.progressText}>{batch.text}</Text>
          {results
            .filter((result) => result.status === 'failed' || result.status === 'skipped')
            .map((result) => (
              <View key={result.deviceId} className={styles.result}>
                <Text>{result.deviceName}</Text>
                <Text className={result.status === 'failed' ? styles.failed : undefined}>
                  {INSTALL_STATUS_TEXT[result.status]}：{result.reason}
                </Text>
              </View>
            ))}
        </View>
      )}

      <Text className={styles.sectionTitle}>我的应用</Text>
      {apps && apps.mine.length === 0 && <Text className={styles.empty}>还没有上传应用</Text>}
      {apps?.mine.map(row)}

      <Text className={styles.sectionTitle}>应用库</Text>
      {apps && apps.catalogue.length === 0 && <Text className={styles.empty}>应用库暂无应用</Text>}
      {apps?.catalogue.map(row)}

      <BottomSheet
        visible={target !== null}
        title={`将「${target?.name ?? ''}」安装到`}
        options={[...TARGETS]}
        onCancel={() => setTarget(null)}
        onSelect={(index) => target && void pickTarget(target, index)}
      />
      <BottomSheet
        visible={groups !== null}
        title="选择分组"
        options={(groups?.groups ?? []).map((g) => `${g.name}（${g.deviceCount}台）`)}
        onCancel={() => setGroups(null)}
        onSelect={(index) => void pickGroup(index)}
      />
      {choosing && (
        <PhoneChooser
          appName={choosing.name}
          onCancel={() => setChoosing(null)}
          onInstall={(deviceIds) => void installChosen(choosing, deviceIds)}
        />
      )}
    </View>
  )
}
