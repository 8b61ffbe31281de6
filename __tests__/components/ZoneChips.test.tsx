import { fireEvent, render, screen } from '@testing-library/react'
import ZoneChips from '@/components/ZoneChips'
import { goods } from '../pages/buying/fixtures'

// 华东-上海 充足, 华南-广州 紧张, 华北-北京 售罄
const { zones } = goods()

describe('ZoneChips', () => {
  it('names each zone with its stock and marks the chosen one', () => {
    render(<ZoneChips zones={zones} value={2} onChange={jest.fn()} />)
    expect(screen.getByRole('radiogroup', { name: '选择地区' })).toBeTruthy()
    expect(screen.getAllByRole('radio').map((chip) => chip.textContent)).toEqual([
      '华东-上海充足',
      '华南-广州紧张',
      '华北-北京售罄',
    ])
    expect(screen.getByRole('radio', { name: '华南-广州 紧张' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(screen.getByRole('radio', { name: '华东-上海 充足' }).getAttribute('aria-checked')).toBe(
      'false',
    )
  })

  it('reports a tapped zone; a sold-out one is shown disabled and cannot be chosen', () => {
    const onChange = jest.fn()
    render(<ZoneChips zones={zones} value={1} onChange={onChange} />)
    const soldOut = screen.getByRole('radio', { name: '华北-北京 售罄' })
    expect(soldOut.getAttribute('aria-disabled')).toBe('true')
    fireEvent.click(soldOut)
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('radio', { name: '华南-广州 紧张' }))
    expect(onChange).toHaveBeenCalledWith(2)
  })
})
