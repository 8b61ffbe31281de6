/**
 * Refreshes the screenshots the docs show, on purpose: every `screenshots/<name>.png` that README.md or
 * docs/*.md names is copied from the last e2e run (e2e/artifacts/screenshots, ignored by git) to
 * docs/screenshots, and images no doc names are removed. Run after `npm run test:e2e`; commit the result.
 */
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const from = path.join(root, 'e2e/artifacts/screenshots')
const to = path.join(root, 'docs/screenshots')
const docs = [
  path.join(root, 'README.md'),
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join(root, 'docs', f)),
]

const named = new Set(
  docs.flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/screenshots\/([\w.-]+\.png)/g)].map((m) => m[1]),
  ),
)
const missing = [...named].filter((name) => !fs.existsSync(path.join(from, name)))
if (missing.length > 0) {
  console.error(
    `screenshots:docs: the last e2e run made none of ${missing.join(', ')} (run npm run test:e2e first)`,
  )
  process.exit(1)
}
fs.mkdirSync(to, { recursive: true })
for (const name of named) fs.copyFileSync(path.join(from, name), path.join(to, name))
const stale = fs.readdirSync(to).filter((name) => !named.has(name))
for (const name of stale) fs.rmSync(path.join(to, name))
console.log(
  `screenshots:docs: ${named.size} copied to docs/screenshots, ${stale.length} no doc names removed`,
)
