import { fireEvent, render, screen } from '@testing-library/react'
import TickBox from '@/components/TickBox'

describe('TickBox', () => {
  it.each([false, true])(
    'ticked %s, is a named checkbox that reports the opposite on a tap',
    (checked) => {
      const onChange = jest.fn()
      render(<TickBox checked={checked} onChange={onChange} label="同意协议" />)
      const box = screen.getByRole('checkbox', { name: '同意协议' })
      expect(box.getAttribute('aria-checked')).toBe(String(checked))
      fireEvent.click(box)
      expect(onChange).toHaveBeenCalledWith(!checked)
    },
  )
})
