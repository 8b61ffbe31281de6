import { render, screen } from '@testing-library/react'
import ZoneStatus from '@/components/ZoneStatus'
import { zone } from '../pages/buying/fixtures'

describe('ZoneStatus', () => {
  it.each([
    [1, '充足', 'rgb(0, 125, 89)'],
    [2, '正常', 'rgb(47, 95, 232)'],
    [3, '紧张', 'rgb(179, 77, 0)'],
    [4, '售罄', 'rgb(100, 106, 120)'],
  ])(
    'shows the zone with its stock status %i (%s) in that status colour',
    (status, text, colour) => {
      render(<ZoneStatus zone={zone({ inventoryStatus: status, statusText: text })} />)
      expect(screen.getByText('华东-上海')).toBeTruthy()
      expect(screen.getByText(text).style.color).toBe(colour)
    },
  )
})
