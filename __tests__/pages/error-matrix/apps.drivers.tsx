/** 应用管理: the error matrix drivers of pages/Apps/index (the list, upload, delete, a batch install). */
import { act, fireEvent, screen } from '@testing-library/react'
import AppsPage from '@/pages/Apps/index'
import InstalledApps from '@/pages/Apps/installed'
import platform from '@/platform'
import { renderPage, setRouteParams } from '../page-harness'

import type { Driver } from './harness'

const ROUTE = 'pages/Apps/index'

const mine = {
  appId: 1,
  name: '演示应用',
  packageName: 'com.studio.demo',
  versionName: '1.2.0',
  versionCode: 3,
  sizeBytes: 2048,
  iconUrl: null,
  source: 'mine',
  hidden: false,
  createdAt: '2026-12-06T08:00:00.000Z',
}
// no batch running when the page opens
const idle = { '/app/install/latest': null }
const withApp = { '/app/list': { mine: [mine], catalogue: [] }, ...idle }
const empty = { '/app/list': { mine: [], catalogue: [] }, ...idle }
const batch = (finished: boolean) => ({
  installId: 9,
  appId: 1,
  appName: '演示应用',
  packageName: 'com.studio.demo',
  total: 2,
  done: finished ? 2 : 0,
  installed: finished ? 2 : 0,
  failed: 0,
  skipped: 0,
  finished,
  text: finished ? '安装完成：成功 2' : '安装中 0/2',
})

const openWithApp = async () => {
  renderPage(<AppsPage />, {})
  await screen.findByText('演示应用')
}
/** 安装到… → 全部云机 → the confirm (the harness's modal confirms). */
const installOnAll = () => {
  fireEvent.click(screen.getByText('安装到…'))
  fireEvent.click(screen.getByText('全部云机'))
}

const INSTALLED_ROUTE = 'pages/Apps/installed'
const onPhone = {
  '/app/installed': [{ packageName: 'com.studio.demo', name: '演示应用', versionName: '1.2.0' }],
}

/** 'METHOD /path' → how the page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /app/list': {
    route: ROUTE,
    answers: idle,
    open: async () => void renderPage(<AppsPage />, {}),
  },
  'GET /app/install/latest': {
    route: ROUTE,
    answers: withApp,
    open: async () => void renderPage(<AppsPage />, {}),
  },
  'POST /app/upload': {
    route: ROUTE,
    answers: empty,
    async open() {
      jest
        .spyOn(platform, 'chooseApk')
        .mockResolvedValue({ path: 'blob:apk', name: 'a.apk', size: 2048 })
      renderPage(<AppsPage />, {})
      await screen.findByText('还没有上传应用')
      fireEvent.click(screen.getByText('上传安装包'))
    },
  },
  'POST /app/delete': {
    route: ROUTE,
    answers: withApp,
    async open() {
      await openWithApp()
      fireEvent.click(screen.getByText('删除'))
    },
  },
  'POST /app/install': {
    route: ROUTE,
    answers: withApp,
    async open() {
      await openWithApp()
      installOnAll()
    },
  },
  'GET /app/install/progress': {
    route: ROUTE,
    answers: { ...withApp, '/app/install': batch(false) },
    async open() {
      // the page reads the progress 2 s after the batch started
      jest.useFakeTimers()
      await openWithApp()
      installOnAll()
      await screen.findByText('安装中 0/2')
      await act(async () => {
        jest.advanceTimersByTime(2_000)
      })
    },
  },
  'GET /app/installed': {
    route: INSTALLED_ROUTE,
    async open() {
      setRouteParams({ deviceId: '7' })
      renderPage(<InstalledApps />, {})
    },
  },
  'POST /app/launch': {
    route: INSTALLED_ROUTE,
    answers: onPhone,
    async open() {
      setRouteParams({ deviceId: '7' })
      renderPage(<InstalledApps />, {})
      fireEvent.click(await screen.findByText('打开'))
    },
  },
  'GET /app/install/results': {
    route: ROUTE,
    answers: { ...withApp, '/app/install': batch(true) },
    async open() {
      await openWithApp()
      installOnAll()
    },
  },
}
