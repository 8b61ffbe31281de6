import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Envelope, Paged } from '../contract/common'
import { OrderInfo } from '../contract/order'
import {
  AccountBalance,
  AgentBalanceRechargeBody,
  BeanLedgerEntry,
  BeanLedgerQuery,
  CreateRechargeOrderBody,
  CreateTimeToMonthOrderBody,
  RechargePackages,
  TimeToMonthQuote,
  TimeToMonthQuoteQuery,
  TimeToMonthResult,
} from '../contract/wallet'
import { currentUser } from '../plugins/auth'
import { ok, sendOkData } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

const walletRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { wallet } = app.services
  const tags = ['云豆']
  const security = bearer

  app.get(
    '/wallet/rechargePackages',
    { schema: { tags, security, response: { 200: Envelope(RechargePackages) } } },
    async (request) => ok(await wallet.packages(currentUser(request).userId)),
  )

  app.post(
    '/order/createRechargeOrder',
    {
      schema: {
        tags,
        security,
        description:
          'An unpaid cloud-bean recharge order (business type 3); paying it credits the beans once.',
        body: CreateRechargeOrderBody,
        response: { 200: Envelope(OrderInfo) },
      },
    },
    async (request) =>
      ok(await wallet.createRechargeOrder(currentUser(request).userId, request.body)),
  )

  app.get(
    '/wallet/accountBalance',
    { schema: { tags, security, response: { 200: Envelope(AccountBalance) } } },
    async (request) => ok(await wallet.accountBalance(currentUser(request).userId)),
  )

  app.post(
    '/order/agentBalanceRecharge',
    {
      schema: {
        tags,
        security,
        description:
          'Company users: an unpaid account-balance top-up (amount in fen); paying it credits the balance once.',
        body: AgentBalanceRechargeBody,
        response: { 200: Envelope(OrderInfo) },
      },
    },
    async (request) =>
      ok(await wallet.createAgentBalanceRecharge(currentUser(request).userId, request.body)),
  )

  app.get(
    '/wallet/beanLedger',
    {
      schema: {
        tags,
        security,
        querystring: BeanLedgerQuery,
        response: { 200: Envelope(Paged(BeanLedgerEntry)) },
      },
    },
    async (request, reply) =>
      sendOkData(reply, await wallet.ledgerJson(currentUser(request).userId, request.query)),
  )

  app.get(
    '/wallet/timeToMonthQuote',
    {
      schema: {
        tags,
        security,
        querystring: TimeToMonthQuoteQuery,
        response: { 200: Envelope(TimeToMonthQuote) },
      },
    },
    async (request) =>
      ok(await wallet.timeToMonthQuote(currentUser(request).userId, request.query.deviceId)),
  )

  app.post(
    '/order/createTimeToMonthOrder',
    {
      schema: {
        tags,
        security,
        description:
          'Beans for 30 more days of an owned phone, at once (1015 when beans are short).',
        body: CreateTimeToMonthOrderBody,
        response: { 200: Envelope(TimeToMonthResult) },
      },
    },
    async (request) =>
      ok(await wallet.createTimeToMonthOrder(currentUser(request).userId, request.body)),
  )
}

export default walletRoutes
