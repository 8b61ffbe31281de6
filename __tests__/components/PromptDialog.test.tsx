import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import PromptDialog, { type PromptRequest } from '@/components/PromptDialog'
import { typeInto } from '../pages/page-harness'

const rename = (over: Partial<PromptRequest> = {}): PromptRequest => ({
  title: '修改名称',
  label: '云手机名称',
  initial: '云手机-3',
  validate: (value) => (value.trim() ? null : '请输入名称'),
  onConfirm: jest.fn().mockResolvedValue(undefined),
  ...over,
})
const input = () =>
  document.querySelector('taro-input-core[aria-label="云手机名称"]') as HTMLInputElement

describe('PromptDialog', () => {
  it('shows nothing without a request', () => {
    render(<PromptDialog request={null} onClose={jest.fn()} />)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('opens on the current value and confirms what was typed, trimmed, then closes', async () => {
    const request = rename()
    const onClose = jest.fn()
    const { container } = render(<PromptDialog request={request} onClose={onClose} />)
    expect(screen.getByRole('dialog', { name: '修改名称' })).toBeTruthy()
    expect(input().value).toBe('云手机-3')
    expect(input().getAttribute('placeholder')).toBe('云手机名称')
    typeInto(container, '云手机名称', ' 办公机 ')
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1))
    expect(request.onConfirm).toHaveBeenCalledWith('办公机')
  })

  it('says what is wrong with the value inside the dialog and stays open', async () => {
    const request = rename()
    const onClose = jest.fn()
    const { container } = render(<PromptDialog request={request} onClose={onClose} />)
    typeInto(container, '云手机名称', '  ')
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe('请输入名称')
    expect(request.onConfirm).not.toHaveBeenCalled()
    expect(onClose).not.toHaveBeenCalled()
  })

  it('shows why the change was refused and stays open; 取消 closes', async () => {
    const request = rename({ onConfirm: jest.fn().mockRejectedValue(new Error('名称已存在')) })
    const onClose = jest.fn()
    render(<PromptDialog request={request} onClose={onClose} />)
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe('名称已存在')
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('取消'))
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('a new request starts from its own value, with its placeholder', () => {
    const { rerender } = render(<PromptDialog request={rename()} onClose={jest.fn()} />)
    rerender(
      <PromptDialog
        request={rename({ title: '打开网址', initial: undefined, placeholder: 'https://' })}
        onClose={jest.fn()}
      />,
    )
    expect(screen.getByRole('dialog', { name: '打开网址' })).toBeTruthy()
    expect(input().value).toBe('')
    expect(input().getAttribute('placeholder')).toBe('https://')
  })
})
