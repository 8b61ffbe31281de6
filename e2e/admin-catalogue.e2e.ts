/**
 * 商品与价格 in the operator console, desktop 1440×900: an operations operator (made by
 * `npm run admin:create`) signs in, opens a goods' price rows, changes its 30-day price in 元 and saves;
 * the H5 catalogue (Home/create, a fresh mobile page) shows the new price on that goods' card. Taking a
 * goods off sale asks first and names the consequence (cancelled here). On 供应商映射 a zone gets its ACEP data
 * centre: a malformed id is refused in the dialog, a padded one saved trimmed. axe finds nothing critical or
 * serious on the page, its expanded row, the price dialog, 供应商映射 and its dialog.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { durationLabel } from '#domain/catalogue'
import { formatYuan } from '#domain/formatters'
import { api, screenshot, consoleAxeReport, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPS = { name: 'e2e-ops', password: 'e2e-ops-password-1' }

interface ListedGoods {
  goodId: number
  name: string
  configName: string
  androidVersionLabel: string
  levelName: string
  prices: {
    goodTime: number
    goodPrice: number
    firstPurchasePrice: number | null
    activityRunning: boolean
  }[]
}

test('an operator changes a price in 元 and the H5 catalogue shows it', async () => {
  const operator = await createOperator(e2e, { ...OPS, role: 'operations' })

  // a goods whose card shows its 30-day price as it is (no first-purchase offer, no activity)
  const listed = await api<{ goods: ListedGoods[] }[]>('/CommodityGroup/getGoodsList')
  const goods = listed.data
    .flatMap((level) => level.goods)
    .find((g) =>
      g.prices.some(
        (p) => p.goodTime === 30 && p.firstPurchasePrice === null && !p.activityRunning,
      ),
    )
  assert.ok(goods, 'the seed has a goods with a plain 30-day price')
  const monthly = goods.prices.find((p) => p.goodTime === 30)!
  const newFen = monthly.goodPrice - 111 // below the price: the struck-through price stays above it
  const newYuan = (newFen / 100).toFixed(2)

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)
  await page.getByRole('menu').first().getByText('商品与价格', { exact: true }).click()
  await page.waitForURL('**/admin/catalogue')

  const row = page.locator(`tr[data-row-key="${goods.goodId}"]`)
  await row.getByText('在售').waitFor()
  report.push(...(await consoleAxeReport(page, '商品与价格')))
  await screenshot(page, 'admin-catalogue')

  // taking a goods off sale asks first, naming the consequence; cancelled, it stays on sale
  await row.getByRole('button', { name: /^下\s*架$/ }).click()
  const confirm = page.getByRole('tooltip').filter({ hasText: '用户将无法购买该商品' })
  await confirm.waitFor()
  await screenshot(page, 'admin-catalogue-off-sale-confirm')
  await confirm.getByRole('button', { name: /取\s*消/ }).click()
  await confirm.waitFor({ state: 'hidden' })

  await row.getByRole('button', { name: /展开行|Expand row/ }).click()
  const label = `${goods.name}（${goods.androidVersionLabel}） ${durationLabel(30)}`
  await page.getByRole('button', { name: `修改价格 ${label}` }).click()
  const dialog = page.getByRole('dialog', { name: `修改价格：${label}` })
  const price = dialog.getByLabel('售价')
  await price.waitFor()
  assert.equal(await price.inputValue(), (monthly.goodPrice / 100).toFixed(2), 'shown in 元')
  report.push(...(await consoleAxeReport(page, '修改价格')))
  await price.fill(newYuan)
  await dialog.getByRole('button', { name: /保\s*存/ }).click()
  await dialog.waitFor({ state: 'hidden' })
  await page.getByText('已保存，用户端在商品目录刷新后（最长30秒）显示').waitFor()
  const expanded = page.locator('.ant-table-expanded-row').first()
  await expanded.getByText(formatYuan(newFen), { exact: true }).waitFor()
  report.push(...(await consoleAxeReport(page, '商品与价格 (expanded)')))
  await screenshot(page, 'admin-catalogue-price-saved')

  // the user site: this server reread its catalogue at the edit, so a fresh page shows it at once
  const { page: h5, errors: h5Errors } = await e2e.newPage()
  await e2e.open(h5, '/pages/Home/create')
  await h5.getByRole('tab', { name: goods.levelName }).click()
  const card = h5
    .getByRole('button', { name: new RegExp(`^${goods.levelName}`) })
    .filter({ hasText: goods.configName })
    .filter({ hasText: goods.androidVersionLabel })
  await card.getByText(formatYuan(newFen), { exact: true }).waitFor()
  await screenshot(h5, 'admin-catalogue-h5-price')

  // 供应商映射: a zone's ACEP data centre, refused when malformed (the shared rule's words), then saved
  await page.getByRole('tab', { name: '供应商映射' }).click()
  await page.getByText('切换到火山引擎前需要补全').waitFor()
  report.push(...(await consoleAxeReport(page, '供应商映射')))
  await page.getByRole('button', { name: '填写映射 华东-上海' }).click()
  const mapping = page.getByRole('dialog', { name: '供应商映射：华东-上海' })
  const dc = mapping.getByLabel('火山引擎机房ID（Dc）')
  await dc.fill('机房 1')
  await mapping.getByRole('button', { name: /保\s*存/ }).click()
  await mapping
    .getByText(/英文字母、数字/)
    .first()
    .waitFor()
  report.push(...(await consoleAxeReport(page, '供应商映射 dialog')))
  await dc.fill('  cn-shanghai-a  ')
  await mapping.getByRole('button', { name: /保\s*存/ }).click()
  await mapping.waitFor({ state: 'hidden' })
  await page.getByRole('row').filter({ hasText: '华东-上海' }).getByText('cn-shanghai-a').waitFor()
  await screenshot(page, 'admin-supplier-mapping')

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
  assert.deepEqual(h5Errors, [])
})
