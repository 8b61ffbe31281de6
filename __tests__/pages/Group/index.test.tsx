import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import GroupIndex from '@/pages/Group'
import * as groupService from '@/api/group'
import { AppStore } from '@/stores/app-store'
import { renderPage, typeInto } from '../page-harness'
import { memoryStorage } from '../../stores/helpers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/group', () => ({
  listGroups: jest.fn(),
  createGroup: jest.fn(),
  renameGroup: jest.fn(),
  deleteGroup: jest.fn(),
  sortGroups: jest.fn(),
}))

const api = groupService as jest.Mocked<typeof groupService>
const list = {
  groups: [
    { groupId: 4, name: '工作室', sort: 0, deviceCount: 12 },
    { groupId: 9, name: '测试', sort: 1, deviceCount: 3 },
  ],
  ungroupedCount: 5,
  totalCount: 20,
}

function setup() {
  const { storage, data } = memoryStorage()
  const app = new AppStore(storage)
  renderPage(<GroupIndex />, { app })
  return { app, data }
}

beforeEach(() => {
  jest.clearAllMocks()
  api.listGroups.mockResolvedValue(list)
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})

describe('分组管理', () => {
  it('lists groups with their counts, 未分组 first', async () => {
    setup()
    await screen.findByText('工作室')
    expect(screen.getByText('5台')).toBeTruthy()
    expect(screen.getByText('12台')).toBeTruthy()
    expect(screen.getByText('3台')).toBeTruthy()
  })

  it('creates a group from the dialog and refuses an empty name', async () => {
    api.createGroup.mockResolvedValue({ groupId: 10, name: '新组', sort: 2, deviceCount: 0 })
    setup()
    await screen.findByText('工作室')
    fireEvent.click(screen.getByText('新建分组'))
    fireEvent.click(await screen.findByText('确定'))
    // said inside the dialog, not in a toast over its buttons
    expect((await screen.findByRole('alert')).textContent).toBe('请输入分组名称')
    expect(api.createGroup).not.toHaveBeenCalled()
    typeInto(document.body, '分组名称', ' 新组 ')
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(api.createGroup).toHaveBeenCalledWith('新组'))
    await waitFor(() => expect(api.listGroups).toHaveBeenCalledTimes(2))
  })

  it('renames a group', async () => {
    api.renameGroup.mockResolvedValue({ groupId: 9, name: '正式', sort: 1, deviceCount: 3 })
    setup()
    fireEvent.click(await screen.findByLabelText('重命名测试'))
    typeInto(document.body, '分组名称', '正式')
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(api.renameGroup).toHaveBeenCalledWith(9, '正式'))
  })

  it('says the phones become 未分组 before deleting, and forgets it as the Home filter', async () => {
    api.deleteGroup.mockResolvedValue(null)
    const { app } = setup()
    app.setHomeGroupId(4)
    fireEvent.click(await screen.findByLabelText('删除工作室'))
    await waitFor(() => expect(api.deleteGroup).toHaveBeenCalledWith(4))
    expect(Taro.showModal).toHaveBeenCalledWith(
      expect.objectContaining({ content: expect.stringContaining('12台云手机将移至未分组') }),
    )
    await waitFor(() => expect(app.homeGroupId).toBeNull())
  })

  it('keeps the group when the user cancels the deletion', async () => {
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true } as never)
    setup()
    fireEvent.click(await screen.findByLabelText('删除工作室'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.deleteGroup).not.toHaveBeenCalled()
  })

  it('moves a group down by sending the whole new order', async () => {
    api.sortGroups.mockResolvedValue(null)
    setup()
    fireEvent.click(await screen.findByLabelText('下移工作室'))
    await waitFor(() => expect(api.sortGroups).toHaveBeenCalledWith([9, 4]))
    fireEvent.click(screen.getByLabelText('上移工作室'))
    expect(api.sortGroups).toHaveBeenCalledTimes(1)
  })

  it('shows a group on Home when tapped, remembering it as the Home filter', async () => {
    const { data } = setup()
    fireEvent.click(await screen.findByLabelText('测试'))
    expect(data.get('homeGroupId')).toBe(9)
    expect(Taro.switchTab).toHaveBeenCalledWith({ url: '/pages/Home/index' })
  })
})
