#!/usr/bin/env node
/**
 * `node scripts/run-script.mjs <package.json script>` — runs a `node --test '<glob>'` script with the
 * globs expanded (Node 20's test runner cannot; see lib/script-command.mjs). Used by `npm test` and
 * `.ci/run` for test:server and test:e2e. Exits with the child's code, or 1 when no file matches.
 */
import { spawn } from 'node:child_process'
import { repoRoot, scriptCommand } from './lib/script-command.mjs'

const name = process.argv[2]
if (!name) {
  console.error('usage: node scripts/run-script.mjs <script-name>')
  process.exit(2)
}
const { command, args, display, patterns, files } = scriptCommand(name)
if (patterns.length > 0 && files.length === 0) {
  console.error(`${name}: no test files match ${patterns.join(' ')}`)
  process.exit(1)
}
console.log(`> ${display}${patterns.length ? ` (${files.length} files)` : ''}`)
const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
