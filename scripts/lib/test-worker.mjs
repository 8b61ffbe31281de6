/**
 * One worker of scripts/test-files.mjs: runs node:test files one after another in this process, so the
 * start a file pays (loading and transpiling the server, first compiles, the first PGlite) is paid once
 * per worker instead of once per file. Node 20 has no `--test-isolation=none` (it came in 22.8), so this
 * does it with node:test's own in-process mode: the files' top-level tests join this process's root test,
 * which runs them in the order they were declared.
 *
 * The parent hands out files over IPC. After importing one, the worker declares a last top-level test
 * (END_OF_FILE + the file's path) that the root runs only after every test of the file; when it runs, the
 * worker reports the file's time and asks for the next. The parent leaves that test out of the output and
 * the counts. Run as `node --import tsx --test-reporter=tap scripts/lib/test-worker.mjs`.
 */
import path from 'node:path'
import { test } from 'node:test'
import { pathToFileURL } from 'node:url'

export const END_OF_FILE = 'test-worker: end of '

// only when run as the worker (scripts/test-files.mjs imports END_OF_FILE from here)
if (process.send && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.on('message', async (message) => {
    if (message.done) {
      process.disconnect() // nothing else keeps the loop alive: the root reports and the process exits
      return
    }
    const file = message.file
    const started = performance.now()
    try {
      await import(pathToFileURL(path.resolve(file)).href)
    } catch (error) {
      test(`${file} could not be loaded`, () => {
        throw error
      })
    }
    test(`${END_OF_FILE}${file}`, () => {
      process.send({ finished: file, ms: Math.round(performance.now() - started) })
    })
  })
  process.send({ ready: true })
}
