/** Fleet and device: the error matrix drivers of 我的云机, its groups, the device pages and 云手机控制 */
import { fireEvent, screen } from '@testing-library/react'
import Replace from '@/pages/Device/replace'
import SelectChangeZone from '@/pages/Device/selectChangeZone'
import SelectDevice from '@/pages/Device/selectDevice'
import UpgradeDevice from '@/pages/Device/upgradeDevice'
import WebInstance from '@/pages/webView/web_instance'
import GroupIndex from '@/pages/Group'
import MoveGroup from '@/pages/Group/pages/MoveGroup'
import Home from '@/pages/Home'
import { api } from '@/api'
import { AppStore } from '@/stores/app-store'
import { FleetStore, VIEW_TYPE_KEY } from '@/stores/fleet-store'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { device, page } from '../Home/fleet-fixtures'
import { memoryStorage } from '../../stores/helpers'
import type { Driver } from './harness'

const zoneAnswers = {
  '/device/detail': device({ deviceId: 7, name: '主力机', goodId: 11, zoneId: 1 }),
  '/CommodityGroup/getZones': [
    { zoneId: 1, name: '华东-上海', inventoryStatus: 1, statusText: '充足' },
    { zoneId: 2, name: '华南-广州', inventoryStatus: 3, statusText: '紧张' },
  ],
}

const openZones = () => {
  setRouteParams({ deviceId: '7' })
  renderPage(<SelectChangeZone />, {})
}

const homeAnswers = {
  '/device/list': page([
    device({ deviceId: 1, name: '一号' }),
    device({ deviceId: 2, name: '二号' }),
  ]),
  '/device/detail': device({ deviceId: 1, name: '一号' }),
  '/device/cover': { url: '/cover.png', updatedAt: 1 },
  '/group/list': { groups: [], ungroupedCount: 2, totalCount: 2 },
  '/dict/getDeviceStatusList': [{ status: 1, name: '运行中', color: '#007d59' }],
}

/** 我的云机 on the real fleet store and API modules; `multi`: the many-phones view */
const renderHome = (multi = false) => {
  const { storage } = memoryStorage(multi ? { [VIEW_TYPE_KEY]: 1 } : {})
  const app = new AppStore(storage)
  const fleet = new FleetStore({ api, storage, app })
  const session = { isLoggedIn: true, token: 't', renewMsg: '', userInfo: { userId: 1 } }
  renderPage(<Home />, { app, fleet, session })
}

const openHome = async (multi = false) => {
  renderHome(multi)
  await (multi ? screen.findByLabelText('一号') : screen.findByText('一号'))
}

const groupAnswers = {
  '/group/list': {
    groups: [
      { groupId: 4, name: '工作室', sort: 0, deviceCount: 12 },
      { groupId: 9, name: '测试', sort: 1, deviceCount: 3 },
    ],
    ungroupedCount: 5,
    totalCount: 20,
  },
}

const openGroups = async () => {
  renderPage(<GroupIndex />, { app: new AppStore(memoryStorage().storage) })
  await screen.findByText('工作室')
}

const phone7 = { '/device/detail': device({ deviceId: 7, name: '云手机-7', imageVersion: 'v1.0' }) }
const updateAnswers = {
  ...phone7,
  '/device/systemUpdateProgress': {
    deviceId: 7,
    updating: false,
    progress: 0,
    imageVersion: 'v1.0',
    latestVersion: 'v1.2',
    updateAvailable: true,
  },
}
const modelAnswers = {
  ...phone7,
  '/device/models': [
    { modelId: 'm1', name: 'Xiaomi 14' },
    { modelId: 'm2', name: 'HUAWEI Mate 60' },
  ],
}
/** a Device/* page of phone 7 */
const openDevicePage = (page: JSX.Element) => {
  setRouteParams({ deviceId: '7' })
  renderPage(page, {})
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /device/list': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: async () => renderHome(),
  },
  'GET /device/cover': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: () => openHome(),
    quiet:
      'the last frame stays and the phone is tried again when due (Home/parts/fleet/cover-queue.ts)',
  },
  'GET /user/flux': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: () => openHome(),
    quiet:
      'the list stays as loaded and the server is asked again after the next wait (stores/flux-store.ts)',
  },
  'GET /dict/getDeviceStatusList': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    open: () => openHome(),
    quiet: "without the dictionary the phones' statuses show the client's own labels",
  },
  'POST /device/command': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome()
      fireEvent.click(screen.getByText('重启'))
    },
  },
  'POST /device/rename': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome()
      fireEvent.click(screen.getByText('重命名'))
      typeInto(document.body, '云手机名称', '新名字')
      fireEvent.click(screen.getByText('确定'))
    },
  },
  'POST /device/batchCommand': {
    route: 'pages/Home/index',
    answers: homeAnswers,
    async open() {
      await openHome(true)
      fireEvent.click(screen.getByText('多选'))
      for (const name of ['一号', '二号']) fireEvent.click(screen.getByLabelText(name))
      fireEvent.click(screen.getByText('重启'))
    },
  },
  'GET /group/list': {
    route: 'pages/Group/index',
    open: async () =>
      void renderPage(<GroupIndex />, { app: new AppStore(memoryStorage().storage) }),
  },
  'POST /group/create': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByText('新建分组'))
      typeInto(document.body, '分组名称', '新组')
      fireEvent.click(await screen.findByText('确定'))
    },
  },
  'POST /group/rename': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('重命名测试'))
      typeInto(document.body, '分组名称', '正式')
      fireEvent.click(await screen.findByText('确定'))
    },
  },
  'POST /group/delete': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('删除工作室'))
    },
  },
  'POST /group/sort': {
    route: 'pages/Group/index',
    answers: groupAnswers,
    async open() {
      await openGroups()
      fireEvent.click(screen.getByLabelText('下移工作室'))
    },
  },
  'POST /group/moveDevices': {
    route: 'pages/Group/pages/MoveGroup',
    answers: groupAnswers,
    async open() {
      setRouteParams({ deviceIds: '3,5' })
      renderPage(<MoveGroup />, {})
      fireEvent.click(await screen.findByLabelText('工作室'))
      fireEvent.click(screen.getByText('确定'))
    },
  },
  'GET /CommodityGroup/getZones': {
    route: 'pages/Device/selectChangeZone',
    answers: zoneAnswers,
    open: async () => openZones(),
  },
  'POST /device/changeZone': {
    route: 'pages/Device/selectChangeZone',
    answers: zoneAnswers,
    async open() {
      openZones()
      fireEvent.click(await screen.findByRole('button', { name: /华南-广州/ }))
    },
  },
  'POST /device/replace': {
    route: 'pages/Device/replace',
    answers: phone7,
    async open() {
      openDevicePage(<Replace />)
      await screen.findByText('云手机-7')
      fireEvent.click(screen.getByText('更换云机'))
    },
  },
  'GET /device/models': {
    route: 'pages/Device/selectDevice',
    answers: phone7,
    open: async () => openDevicePage(<SelectDevice />),
  },
  'POST /device/setModel': {
    route: 'pages/Device/selectDevice',
    answers: modelAnswers,
    async open() {
      openDevicePage(<SelectDevice />)
      fireEvent.click(await screen.findByRole('radio', { name: 'HUAWEI Mate 60' }))
      fireEvent.click(screen.getByText('确定'))
    },
  },
  'GET /device/systemUpdateProgress': {
    route: 'pages/Device/upgradeDevice',
    answers: phone7,
    open: async () => openDevicePage(<UpgradeDevice />),
  },
  'POST /device/systemUpdate': {
    route: 'pages/Device/upgradeDevice',
    answers: updateAnswers,
    async open() {
      openDevicePage(<UpgradeDevice />)
      await screen.findByText('最新版本：v1.2')
      fireEvent.click(screen.getByText('开始更新'))
    },
  },
  'GET /user/getAuthToken': {
    route: 'pages/webView/web_instance',
    async open() {
      setRouteParams({ deviceId: '12' })
      const loadUserInfo = jest.fn().mockResolvedValue({})
      renderPage(<WebInstance />, { session: { userId: 7, userInfo: null, loadUserInfo } })
    },
  },
}
