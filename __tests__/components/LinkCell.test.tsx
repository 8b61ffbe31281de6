import { fireEvent, render, screen } from '@testing-library/react'
import LinkCell from '@/components/LinkCell'

describe('LinkCell', () => {
  it('shows its title and extra before the arrow, and opens on a tap', () => {
    const onClick = jest.fn()
    const { container } = render(<LinkCell title="实名认证" extra="未认证" onClick={onClick} />)
    expect(screen.getByText('实名认证')).toBeTruthy()
    const extra = screen.getByText('未认证')
    expect(extra.lastElementChild?.classList.contains('nut-icon-ArrowRight')).toBe(true)
    fireEvent.click(screen.getByText('实名认证'))
    expect(onClick).toHaveBeenCalledTimes(1)
    expect(container.querySelector('.nut-cell-clickable')).toBeTruthy()
  })
})
