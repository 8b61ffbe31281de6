/** Messages, scan login and the rest: the error matrix drivers of 消息, 扫码登录, 客服 and activities */
import { fireEvent, screen } from '@testing-library/react'
import CustomerService from '@/pages/CustomerService/index'
import MessageSet from '@/pages/user/messageSet'
import { renderPage } from '../page-harness'

import type { Driver } from './harness'

const serviceAnswers = {
  '/customer/customerService/getUrl': { phone: '400-000-0000', hours: '9:00-21:00', url: null },
  '/customer/feedback/list': { records: [], page: 1, totalPage: 1, total: 0 },
}

/** 联系客服 on one of its tabs */
const openService = async (tab?: '意见反馈' | '我的反馈') => {
  renderPage(<CustomerService />, {})
  if (tab) fireEvent.click(await screen.findByText(tab))
}

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {
  'GET /customer/customerService/getUrl': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    open: () => openService(),
  },
  'GET /customer/feedback/list': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    open: () => openService('我的反馈'),
  },
  'POST /customer/feedback': {
    route: 'pages/CustomerService/index',
    answers: serviceAnswers,
    async open() {
      await openService('意见反馈')
      // Taro's <Textarea> renders <taro-textarea-core>; React reads `detail.value` of its input
      // event (its unhydrated inner <textarea> makes Stencil log a TypeError here, harmlessly)
      const input = document.querySelector('taro-textarea-core[aria-label="反馈内容"]')!
      fireEvent(input, Object.assign(new Event('input'), { detail: { value: '云手机打不开了' } }))
      fireEvent.click(screen.getByText('提交反馈'))
    },
  },
  'GET /message/getSettings': {
    route: 'pages/user/messageSet',
    open: async () => void renderPage(<MessageSet />, {}),
  },
}
