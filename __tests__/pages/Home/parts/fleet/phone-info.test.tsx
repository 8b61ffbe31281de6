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

  it('shows 自动续费 when it is on, and why its last try failed', () => {
    const on = { days: 30, payMethod: 3 as const, failure: null }
    const { unmount } = render(
      <PhoneInfo device={device({ autoRenew: on })} statusEntry={undefined} now={0} />,
    )
    expect(screen.getByText('自动续费')).toBeTruthy()
    unmount()
    render(
      <PhoneInfo
        device={device({ autoRenew: { ...on, failure: '云豆余额不足' } })}
        statusEntry={undefined}
        now={0}
      />,
    )
    expect(screen.getByText('自动续费失败：云豆余额不足')).toBeTruthy()
  })

  it('says nothing of it when off, nor on a grid tile', () => {
    const { unmount } = render(<PhoneInfo device={device()} statusEntry={undefined} now={0} />)
    expect(screen.queryByText(/自动续费/)).toBeNull()
    unmount()
    const on = { days: 30, payMethod: 3 as const, failure: null }
    render(<PhoneInfo device={device({ autoRenew: on })} statusEntry={undefined} now={0} compact />)
    expect(screen.queryByText(/自动续费/)).toBeNull()
  })
})
