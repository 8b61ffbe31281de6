import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import CompanySection from '@/pages/user/parts/personal-data/CompanySection'
import type { UserInfo } from '@/types/api'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/common', () => ({ getDictList: jest.fn().mockResolvedValue([]) }))

const company = {
  companyName: '星云科技',
  address: '上海市浦东新区',
  latitude: null,
  longitude: null,
}

function section(companyStatus: UserInfo['companyStatus'], saved: Partial<UserInfo> = {}) {
  const onSave = jest.fn().mockResolvedValue({ companyStatus: 1, userType: 1, ...saved })
  renderPage(
    <CompanySection
      companyStatus={companyStatus}
      company={companyStatus === 0 ? null : company}
      workTypes={[]}
      onSave={onSave}
    />,
    {},
  )
  return onSave
}

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('企业认证', () => {
  it('says a saved request waits for review, not that it succeeded', async () => {
    section(1)
    expect(screen.getByText('审核中')).toBeTruthy()
    fireEvent.click(screen.getByText('提交企业认证'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '已提交企业认证，审核通过后即可使用企业采购' }),
      ),
    )
  })

  it('shows a verified company as 企业用户', () => {
    section(2)
    expect(screen.getByText('企业用户')).toBeTruthy()
    expect(screen.getByText('保存企业信息')).toBeTruthy()
  })

  it('shows a rejected request', () => {
    section(3)
    expect(screen.getByText('未通过审核')).toBeTruthy()
  })

  it('a verified company saving the same details keeps its status', async () => {
    section(2, { companyStatus: 2, userType: 2 })
    fireEvent.click(screen.getByText('保存企业信息'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '企业信息已保存' }),
      ),
    )
  })
})
