import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import MoveGroup from '@/pages/Group/pages/MoveGroup'
import * as groupService from '@/api/group'
import { renderPage, setRouteParams, typeInto } from '../../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../../page-harness')>('../../page-harness').mockTaro(),
)
jest.mock('@/api/group', () => ({
  listGroups: jest.fn(),
  createGroup: jest.fn(),
  moveDevices: jest.fn(),
}))

const api = groupService as jest.Mocked<typeof groupService>

beforeEach(() => {
  jest.clearAllMocks()
  api.listGroups.mockResolvedValue({
    groups: [{ groupId: 4, name: '工作室', sort: 0, deviceCount: 2 }],
    ungroupedCount: 1,
    totalCount: 3,
  })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}] as never)
})

describe('移动分组', () => {
  it('moves the passed phones to the chosen group and goes back', async () => {
    setRouteParams({ deviceIds: '3,5,8' })
    api.moveDevices.mockResolvedValue(null)
    renderPage(<MoveGroup />, {})
    expect(screen.getByText('将选中的3台云手机移动到：')).toBeTruthy()
    fireEvent.click(await screen.findByLabelText('工作室'))
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(api.moveDevices).toHaveBeenCalledWith([3, 5, 8], 4))
    await waitFor(() => expect(Taro.navigateBack).toHaveBeenCalled())
  })

  it('moves to 未分组 with group 0', async () => {
    setRouteParams({ deviceIds: '3' })
    api.moveDevices.mockResolvedValue(null)
    renderPage(<MoveGroup />, {})
    fireEvent.click(screen.getByLabelText('未分组'))
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(api.moveDevices).toHaveBeenCalledWith([3], 0))
  })

  it('asks for a group before moving', async () => {
    setRouteParams({ deviceIds: '3' })
    renderPage(<MoveGroup />, {})
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '请选择分组' })),
    )
    expect(api.moveDevices).not.toHaveBeenCalled()
  })

  it('新建分组并移入 makes the group with the phones in one step, then goes back', async () => {
    setRouteParams({ deviceIds: '3,5' })
    api.createGroup.mockResolvedValue({ groupId: 12, name: '新组', sort: 1, deviceCount: 2 })
    renderPage(<MoveGroup />, {})
    await screen.findByLabelText('工作室')
    fireEvent.click(screen.getByText('新建分组并移入'))
    expect(screen.getByRole('dialog', { name: '新建分组并移入' })).toBeTruthy()
    typeInto(document.body, '分组名称', '新组')
    const confirms = screen.getAllByText('确定')
    fireEvent.click(confirms[confirms.length - 1])
    await waitFor(() => expect(api.createGroup).toHaveBeenCalledWith('新组', [3, 5]))
    await waitFor(() => expect(Taro.navigateBack).toHaveBeenCalledWith({ delta: 1 }))
    expect(Taro.showToast).toHaveBeenCalledWith(
      expect.objectContaining({ title: '已新建分组并移入2台', icon: 'success' }),
    )
    expect(api.moveDevices).not.toHaveBeenCalled()
  })

  it("says what is wrong with a new group's name inside the dialog, never in a toast", async () => {
    setRouteParams({ deviceIds: '3' })
    api.createGroup.mockRejectedValueOnce({ code: 1050, msg: '分组名称已存在' })
    renderPage(<MoveGroup />, {})
    await screen.findByLabelText('工作室')
    fireEvent.click(screen.getByText('新建分组并移入'))
    const dialog = screen.getByRole('dialog', { name: '新建分组并移入' })
    const confirm = () => {
      const confirms = screen.getAllByText('确定')
      fireEvent.click(confirms[confirms.length - 1])
    }
    confirm()
    expect((await screen.findByRole('alert')).textContent).toBe('请输入分组名称')
    expect(dialog.contains(screen.getByRole('alert'))).toBe(true)
    typeInto(document.body, '分组名称', '工作室')
    confirm()
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('分组名称已存在'))
    expect(Taro.showToast).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('取消'))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('refuses a missing selection with a message', () => {
    setRouteParams({ deviceIds: '' })
    renderPage(<MoveGroup />, {})
    expect(screen.getByText('请选择云手机')).toBeTruthy()
  })
})
