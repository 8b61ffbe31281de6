import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import LoadSignedInHome from '@/pages/Home/parts/LoadSignedInHome.h5'

// H5 fetches the signed-in part of Home as a chunk of its own; here the first fetch fails as webpack's does.
let mockFetches = 0
jest.mock('@/pages/Home/parts/SignedInHome', () => {
  mockFetches += 1
  if (mockFetches === 1) {
    const failure = new Error('Loading chunk 812 failed.')
    failure.name = 'ChunkLoadError'
    throw failure
  }
  return {
    __esModule: true,
    default: ({ active }: { active: boolean }) => `fleet ${active}`,
  }
})

beforeEach(() => {
  // React reports the error its boundary caught
  jest.spyOn(console, 'error').mockImplementation(() => undefined)
})

describe('Home on H5: the signed-in part loads on demand', () => {
  it('says 加载中 while fetching, offers 重试 when the fetch fails, and renders after a retry', async () => {
    render(<LoadSignedInHome active />)
    expect(screen.getByRole('status').textContent).toBe('加载中')

    await screen.findByText('页面加载失败，请检查网络后重试')
    expect(screen.queryByText(/fleet/)).toBeNull()

    fireEvent.click(screen.getByText('重试'))
    await waitFor(() => expect(screen.getByText('fleet true')).toBeTruthy())
    expect(mockFetches).toBe(2)
  })
})
