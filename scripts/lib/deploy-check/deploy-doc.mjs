/** What the checks read in docs/deploy.md: its table of variables and section 6's nginx block. */
import fs from 'node:fs'
import path from 'node:path'

import { expect } from './check.mjs'
import { repoRoot } from './context.mjs'

const deployDoc = () => fs.readFileSync(path.join(repoRoot, 'docs/deploy.md'), 'utf8')

/** docs/deploy.md's table of variables: [variable cell, in production, default, what it is] per row. */
function documentedRows() {
  return deployDoc()
    .split('\n')
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .filter((cells) => cells.length >= 6 && cells[1].startsWith('`'))
    .map((cells) => cells.slice(1, 5))
}
const variablesIn = (text) => [...text.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1])

/** The variables the table marks as required in production (its second column). */
export function documentedRequired() {
  const names = documentedRows()
    .filter(([, production]) => /^required\b/.test(production))
    .flatMap(([variable]) => variablesIn(variable))
  expect(names.length > 0, 'docs/deploy.md has no variable marked "required" in its table')
  return names
}

/**
 * The real providers the table names ("required: `aliyun`, or …") with the keys each needs (the last
 * column's variables before "optional:").
 */
export function documentedProviders() {
  const providers = []
  for (const [variable, production, , what] of documentedRows()) {
    const value = /^required: `([a-z]+)`/.exec(production)?.[1]
    if (!value) continue
    const [name] = variablesIn(variable)
    const needs = variablesIn(what.split('optional:')[0]).filter((key) => key !== name)
    expect(needs.length > 0, `docs/deploy.md names no keys for ${name}=${value}`)
    providers.push({ name, value, needs })
  }
  expect(providers.length > 0, 'docs/deploy.md names no real provider ("required: `…`")')
  return providers
}

/** Section 6's nginx block, directive for directive as the page has it. */
export function documentedNginxBlock() {
  const block = /```nginx\n([\s\S]*?)```/.exec(deployDoc())?.[1]
  expect(block, 'docs/deploy.md has no ```nginx block')
  return block
}
