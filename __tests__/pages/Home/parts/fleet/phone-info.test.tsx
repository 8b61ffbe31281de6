import { render, screen } from '@testing-library/react'
import PhoneInfo from '@/pages/Home/parts/fleet/PhoneInfo'
import { device } from '../../fleet-fixtures'

describe('PhoneInfo', () => {
  it('marks a phone someone else authorised to me, with what I may do', () => {
    render(
      <PhoneInfo
        device={device({ grant: { permission: 1, expiresAt: 0, ownerMobile: '136****0001' } })}
        statusEntry={undefined}
        now={0}
      />,
    )
    expect(screen.getByText('已授权·仅查看')).toBeTruthy()
  })

  it('shows no mark on my own phone', () => {
    render(<PhoneInfo device={device({ grant: null })} statusEntry={undefined} now={0} />)
    expect(screen.queryByText(/已授权/)).toBeNull()
  })
})
