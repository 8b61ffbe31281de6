/**
 * `npm start` builds what is missing or older than its sources: the H5 app and the operator console,
 * each from its own folders (server/src/start-builds.ts).
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { isStale, startBuilds } from '../../src/start-builds'

function write(file: string, secondsAgo: number) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, 'x')
  const at = new Date(Date.now() - secondsAgo * 1000)
  fs.utimesSync(file, at, at)
}

test('each build is stale when its index is missing or older than a file of its own sources, not of the other’s', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'start-builds-'))
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const [h5, admin] = startBuilds({
    h5Dist: path.join(root, 'dist/h5'),
    adminDist: path.join(root, 'dist/admin'),
  })
  write(path.join(root, 'src/pages/Home/index.tsx'), 100)
  write(path.join(root, 'admin/src/main.tsx'), 100)
  assert.equal(isStale(root, h5), true, 'H5: no build yet')
  assert.equal(isStale(root, admin), true, 'console: no build yet')

  write(h5.index, 50)
  write(admin.index, 50)
  assert.equal(isStale(root, h5), false)
  assert.equal(isStale(root, admin), false)

  write(path.join(root, 'admin/src/pages/Users.tsx'), 10)
  assert.equal(isStale(root, admin), true, 'a console page edited after its build')
  assert.equal(isStale(root, h5), false, 'the H5 app does not depend on the console')

  write(h5.index, 8)
  write(admin.index, 8)
  write(path.join(root, 'src/pages/Home/index.tsx'), 6)
  assert.equal(isStale(root, h5), true, 'a client page edited after its build')
  assert.equal(isStale(root, admin), false, 'a client page is not the console’s source')

  write(h5.index, 4)
  write(path.join(root, 'src/domain/coupon.ts'), 2)
  assert.equal(isStale(root, h5), true, 'a shared rule edited: the H5 app…')
  assert.equal(isStale(root, admin), true, '…and the console, which imports it')
})

test('the control page is built from control/ and the shared rules, not from the H5 pages', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'start-builds-'))
  t.after(() => fs.rmSync(root, { recursive: true, force: true }))
  const builds = startBuilds({ h5Dist: null, adminDist: null, controlDist: path.join(root, 'c') })
  assert.deepEqual(
    builds.map((b) => b.script),
    ['build:control'],
  )
  const [control] = builds
  write(path.join(root, 'control/src/main.ts'), 100)
  assert.equal(isStale(root, control), true, 'no build yet')
  write(control.index, 50)
  assert.equal(isStale(root, control), false)
  write(path.join(root, 'src/pages/Home/index.tsx'), 40)
  assert.equal(isStale(root, control), false, 'an H5 page is not its source')
  write(path.join(root, 'src/domain/control-page.ts'), 30)
  assert.equal(isStale(root, control), true, 'its vocabulary in src/domain is')
  write(control.index, 20)
  write(path.join(root, 'control/src/toolbar.ts'), 10)
  assert.equal(isStale(root, control), true, 'its own module is')
})
