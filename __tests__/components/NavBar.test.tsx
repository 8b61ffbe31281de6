import { render, screen } from '@testing-library/react'
import NavBar from '@/components/NavBar'

describe('NavBar', () => {
  it('shows its title and what the page puts on its right', () => {
    render(<NavBar title="云手机" right={<span>消息</span>} />)
    expect(screen.getByText('云手机')).toBeTruthy()
    expect(screen.getByText('消息')).toBeTruthy()
  })

  it('in a browser leaves no room for a status bar', () => {
    const { container } = render(<NavBar title="云手机" />)
    const nav = container.firstElementChild as HTMLElement
    expect(nav.style.paddingTop).toBe('0px')
    expect((nav.firstElementChild as HTMLElement).style.height).toBe('44px')
  })
})
