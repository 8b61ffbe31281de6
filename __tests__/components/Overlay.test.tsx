import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { BottomSheet, DialogBox } from '@/components/Overlay'

describe('BottomSheet', () => {
  it('renders nothing while hidden', () => {
    render(
      <BottomSheet visible={false} options={['一']} onSelect={jest.fn()} onCancel={jest.fn()} />,
    )
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('is a dialog named by its title, reports the chosen index and cancels', () => {
    const onSelect = jest.fn()
    const onCancel = jest.fn()
    render(
      <BottomSheet
        visible
        title="选择分组"
        options={['全部分组', '未分组（2）']}
        onSelect={onSelect}
        onCancel={onCancel}
      />,
    )
    expect(screen.getByRole('dialog', { name: '选择分组' })).toBeTruthy()
    fireEvent.click(screen.getByText('未分组（2）'))
    expect(onSelect).toHaveBeenCalledWith(1)
    fireEvent.click(screen.getByText('取消'))
    expect(onCancel).toHaveBeenCalledTimes(1)
  })
})

describe('DialogBox', () => {
  it('closes when the confirm resolves', async () => {
    const onClose = jest.fn()
    render(
      <DialogBox
        visible
        title="批量重启结果"
        confirmText="知道了"
        onConfirm={jest.fn()}
        onClose={onClose}
      >
        2台成功
      </DialogBox>,
    )
    expect(screen.queryByText('取消')).toBeNull() // no cancelText: one button
    fireEvent.click(screen.getByText('知道了'))
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1))
  })

  it('says why inside the dialog when the confirm rejects, not in a toast over its buttons', async () => {
    const onClose = jest.fn()
    const onConfirm = jest
      .fn()
      .mockRejectedValueOnce(new Error('请输入分组名称'))
      .mockResolvedValueOnce(undefined)
    render(
      <DialogBox visible title="新建分组" cancelText="取消" onConfirm={onConfirm} onClose={onClose}>
        名称
      </DialogBox>,
    )
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe('请输入分组名称')
    expect(screen.getByRole('dialog', { name: '新建分组' }).textContent).toContain('请输入分组名称')
    expect(onClose).not.toHaveBeenCalled()
    // a server answer's message (an ApiError's msg) the same way; a success closes and clears it
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('takes a toast still showing away when it opens, not the loading overlay', () => {
    const hide = jest.spyOn(Taro, 'hideToast').mockReturnValue(undefined as never)
    const { rerender } = render(
      <DialogBox visible={false} title="新建分组" onConfirm={jest.fn()} onClose={jest.fn()}>
        名称
      </DialogBox>,
    )
    expect(hide).not.toHaveBeenCalled()
    rerender(
      <DialogBox visible title="新建分组" onConfirm={jest.fn()} onClose={jest.fn()}>
        名称
      </DialogBox>,
    )
    expect(hide).toHaveBeenCalledWith({ noConflict: true })
  })

  it("shows a server answer's msg", async () => {
    const onConfirm = jest.fn().mockRejectedValue({ code: 1050, msg: '分组名称已存在' })
    render(
      <DialogBox visible title="重命名" cancelText="取消" onConfirm={onConfirm} onClose={jest.fn()}>
        名称
      </DialogBox>,
    )
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe('分组名称已存在')
  })

  it('stays open when the confirm rejects, and cancels on 取消', async () => {
    const onClose = jest.fn()
    const onConfirm = jest.fn().mockRejectedValue(new Error('名称不能为空'))
    render(
      <DialogBox visible title="重命名" cancelText="取消" onConfirm={onConfirm} onClose={onClose}>
        名称
      </DialogBox>,
    )
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('取消'))
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})
