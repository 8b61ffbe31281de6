/**
 * Step 3c: the logged-in user buys a phone with Alipay and another with WeChat Pay H5 through the fakes;
 * both orders complete and both phones run on the fake ACEP.
 */
import crypto from 'node:crypto'

import { expect, step } from '../check.mjs'
import { API, CLIENT_IP, PUBLIC_BASE_URL, seconds, state } from '../context.mjs'
import { fakeControl } from '../fakes.mjs'
import { http, sleep, tail } from '../processes.mjs'

/** The seeded catalogue's 畅享版 4核4G (goods = level × 100 + n), one month (price = goods × 10 + 3), 上海. */
const PHONE = { goodId: 101, priceId: 1013, zoneId: 1 }
const ORDER_COMPLETED = 2 // 已完成: paid and its phones made
const DEVICE_RUNNING = 1 // 运行中

/** Asks `probe` every second until its answer is `done`, for at most `ms`; its last answer. */
async function until(ms, probe) {
  const deadline = Date.now() + ms
  for (;;) {
    const answer = await probe()
    if (answer.done || Date.now() > deadline) return answer
    await sleep(1_000)
  }
}

/** The logged-in buyer orders one phone on instance 1 (behind the proxy); its order. */
async function orderPhone(server) {
  const buyer = { ...state.session, 'x-forwarded-for': CLIENT_IP }
  const quote = await http(
    server,
    'POST',
    '/CommodityGroup/getGoodPrice',
    { kind: 'new', goodId: PHONE.goodId, priceId: PHONE.priceId, quantity: 1 },
    buyer,
  )
  expect(quote.code === 200, `getGoodPrice: ${JSON.stringify(quote)}`)
  const order = await http(
    server,
    'POST',
    '/order/createCloudOrder',
    {
      ...PHONE,
      quantity: 1,
      expectedAmount: quote.data.total,
      idempotencyKey: crypto.randomBytes(8).toString('hex'),
    },
    buyer,
  )
  expect(order.code === 200, `createCloudOrder: ${JSON.stringify(order)}`)
  return order.data
}

/**
 * The paid order, followed on instance 2: completed with one phone, the phone running, its pod on the
 * fake ACEP running with the configuration and data centre the catalogue maps it to.
 */
async function phoneRuns(what, orderNo) {
  const [, two] = state.servers
  const order = await until(60_000, async () => {
    const reply = await http(
      two,
      'GET',
      `/order/getOrderInfo?orderNo=${orderNo}`,
      undefined,
      state.session,
    )
    return {
      reply,
      done: reply.data?.status === ORDER_COMPLETED && reply.data.deviceIds.length === 1,
    }
  })
  expect(
    order.done,
    `${what}: the order is not completed with one phone on instance 2: ${JSON.stringify(order.reply)}\n${tail(two)}`,
  )
  const [deviceId] = order.reply.data.deviceIds
  const device = await until(60_000, async () => {
    const reply = await http(
      two,
      'GET',
      `/device/detail?deviceId=${deviceId}`,
      undefined,
      state.session,
    )
    return { reply, done: reply.data?.status === DEVICE_RUNNING }
  })
  expect(
    device.done,
    `${what}: phone ${deviceId} is not running on instance 2: ${JSON.stringify(device.reply)}\n${tail(two)}`,
  )
  const podId = state.cluster
    .asApp(`select supplier_instance_id from devices where id = ${Number(deviceId)}`)
    .trim()
  const pods = await fakeControl('GET', '/acep/pods')
  const pod = pods.pods?.find((candidate) => candidate.podId === podId)
  expect(
    pod?.running && pod.config === `config-${PHONE.goodId}` && pod.dc === `dc-${PHONE.zoneId}`,
    `${what}: phone ${deviceId}'s pod "${podId}" is not running on the fake ACEP as mapped: ${JSON.stringify(pods)}\n${state.fakes.log()}`,
  )
  return { deviceId, podId }
}

export const payWithAlipayAndWechatPay = step(
  '3c. pay with Alipay and with WeChat Pay H5 through the fakes; the phones run on the fake ACEP',
  async () => {
    const [one] = state.servers
    const buyer = { ...state.session, 'x-forwarded-for': CLIENT_IP }

    // Alipay: the WAP checkout opened by the buyer's browser, paid there; the notification to our origin.
    const alipayOrder = await orderPhone(one)
    const alipay = await http(
      one,
      'POST',
      '/pay/createPayment',
      { orderNo: alipayOrder.orderNo, payMethod: 1 },
      buyer,
    )
    expect(
      alipay.code === 200 &&
        alipay.data.checkoutUrl?.startsWith(`${state.fakes.env.ALIPAY_GATEWAY}?`),
      `Alipay createPayment on instance 1 did not answer the gateway's checkout: ${JSON.stringify(alipay)}`,
    )
    const page = await (
      await fetch(alipay.data.checkoutUrl, { signal: AbortSignal.timeout(10_000) })
    ).text()
    expect(page.includes('支付宝'), `the Alipay checkout page refused the link: ${page}`)
    const alipayPaid = await fakeControl('POST', `/alipay/pay/${alipay.data.tradeNo}`)
    expect(
      alipayPaid.deliveries?.length === 1 &&
        alipayPaid.deliveries[0].status === 200 &&
        alipayPaid.deliveries[0].reply === 'success',
      `Alipay's notification was not answered "success": ${JSON.stringify(alipayPaid)}`,
    )

    // WeChat Pay H5: the h5_url (WeChat's own page, which returns to ours) and the notification.
    const wechatOrder = await orderPhone(one)
    const wechat = await http(
      one,
      'POST',
      '/pay/createPayment',
      { orderNo: wechatOrder.orderNo, payMethod: 2, scene: 'browser' },
      buyer,
    )
    const back = `${PUBLIC_BASE_URL}/pages/pay/pay?orderNo=${wechatOrder.orderNo}`
    let h5 = null
    try {
      h5 = new URL(wechat.data.checkoutUrl)
    } catch {
      /* no URL */
    }
    expect(
      wechat.code === 200 &&
        h5?.origin === 'https://wx.tenpay.com' &&
        h5.searchParams.get('redirect_url') === back,
      `WeChat Pay H5 createPayment did not answer the h5_url returning to ${back}: ${JSON.stringify(wechat)}`,
    )
    const wechatPaid = await fakeControl('POST', `/wechatpay/pay/${wechat.data.tradeNo}`)
    expect(
      wechatPaid.deliveries?.length === 1 && wechatPaid.deliveries[0].status === 200,
      `WeChat Pay's notification was not answered 200: ${JSON.stringify(wechatPaid)}`,
    )
    // With nginx the fakes sent them to its TLS port: signed over the raw body, so accepted only if
    // section 6's block passed path and bytes unchanged.
    const via = state.proxy ? 'through nginx' : 'straight to the instances'
    if (state.proxy) {
      const access = state.proxy.log('access.log')
      for (const provider of ['alipay', 'wechatpay'])
        expect(
          new RegExp(`"POST ${API}/pay/notify/${provider} HTTP/1\\.1" 200 `).test(access),
          `${provider}'s notification is not in nginx's access log, answered 200:\n${access}`,
        )
    }
    console.log(`   both notifications came ${via} and were accepted at ${seconds()} s`)

    const [byAlipay, byWechat] = await Promise.all([
      phoneRuns('Alipay', alipayOrder.orderNo),
      phoneRuns('WeChat Pay', wechatOrder.orderNo),
    ])
    console.log(
      `   both orders completed; phones ${byAlipay.deviceId} and ${byWechat.deviceId} run as ACEP pods ${byAlipay.podId}, ${byWechat.podId} (seen by instance 2)`,
    )
  },
)
