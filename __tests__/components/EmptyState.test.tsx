import { render, screen } from '@testing-library/react'
import EmptyState from '@/components/EmptyState'

const pictures = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('taro-image-core, img')).map((image) =>
    image.getAttribute('src'),
  )

describe('EmptyState', () => {
  it('says what is empty beside the bundled picture, not one from a CDN', () => {
    const { container } = render(<EmptyState description="暂无订单" />)
    expect(screen.getByText('暂无订单')).toBeTruthy()
    // the jest stub of src/assets/tab/home.png
    expect(pictures(container)).toEqual(['test-file-stub'])
  })

  it("takes a caller's own picture and title", () => {
    const { container } = render(
      <EmptyState title="还没有云手机" description="去首页选购" image={<span>图</span>} />,
    )
    expect(screen.getByText('还没有云手机')).toBeTruthy()
    expect(screen.getByText('去首页选购')).toBeTruthy()
    expect(screen.getByText('图')).toBeTruthy()
    expect(pictures(container)).toEqual([])
  })
})
