import assert from 'node:assert/strict'
import { test } from 'node:test'
import { FreshRead } from '../../src/services/catalogue/fresh-read'

/** Reads answered by hand: `reads[i]` is the i-th read, answered with `answer(i, value)`. */
function handReads() {
  const reads: { resolve(value: number): void; reject(error: Error): void }[] = []
  const read = () =>
    new Promise<number>((resolve, reject) => {
      reads.push({ resolve, reject })
    })
  return { reads, read }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

test('calls that find a read under way share the next one, begun after all of them arrived', async () => {
  const { reads, read } = handReads()
  const shared = new FreshRead(read)
  const first = shared.get()
  const waiting = Array.from({ length: 10 }, () => shared.get())
  assert.equal(reads.length, 1, 'one read under way')

  reads[0].resolve(1)
  assert.equal(await first, 1)
  await tick()
  assert.equal(reads.length, 2, 'the ten waiting calls started one read, after the first ended')
  const late = shared.get() // arrives while the second is under way: waits for a third
  reads[1].resolve(2)
  assert.deepEqual(await Promise.all(waiting), Array(10).fill(2))
  await tick()
  assert.equal(reads.length, 3)
  reads[2].resolve(3)
  assert.equal(await late, 3)

  // nothing under way: a call reads at once
  await tick()
  const alone = shared.get()
  assert.equal(reads.length, 4)
  reads[3].resolve(4)
  assert.equal(await alone, 4)
})

test('a failed read fails its callers only; the calls waiting behind it get a read of their own', async () => {
  const { reads, read } = handReads()
  const shared = new FreshRead(read)
  const failing = shared.get()
  const waiting = shared.get()
  reads[0].reject(new Error('connection lost'))
  await assert.rejects(failing, /connection lost/)
  await tick()
  reads[1].resolve(7)
  assert.equal(await waiting, 7)
})
