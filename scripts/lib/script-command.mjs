/**
 * Node 20's test runner does not expand glob patterns (`node --test 'server/test/**\/*.test.ts'` looks
 * for a file literally named so; globs arrived in Node 21). `scriptCommand(name)` reads a package.json
 * script and, when it is a `node … --test … '<glob>'` command, returns the same command with the globs
 * expanded here, so it runs on Node 20 and later alike. Any other script is run as `npm run <name>`.
 */
import fs from 'node:fs'
import path from 'node:path'

export const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')

/** @returns {{ command: string, args: string[], display: string, patterns: string[], files: string[] }} */
export function scriptCommand(name) {
  const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'))
  const script = pkg.scripts?.[name]
  if (!script) throw new Error(`package.json has no "${name}" script`)
  const words = shellWords(script)
  const isNodeTest = words && words[0] === 'node' && words.includes('--test')
  if (!isNodeTest) {
    return {
      command: 'npm',
      args: ['run', name],
      display: `npm run ${name}`,
      patterns: [],
      files: [],
    }
  }
  const args = []
  const patterns = []
  const files = []
  for (const word of words.slice(1)) {
    if (!word.startsWith('-') && /[*?{[]/.test(word)) {
      patterns.push(word)
      files.push(...expandGlob(word))
      args.push(...expandGlob(word))
    } else {
      args.push(word)
    }
  }
  return { command: process.execPath, args, display: script, patterns, files }
}

/** Splits a simple shell command line (quotes, no substitutions); null if it uses anything fancier. */
function shellWords(line) {
  if (/[|&;<>$`()]/.test(line.replace(/'[^']*'/g, ''))) return null
  const words = []
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g
  for (let m = re.exec(line); m; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3])
  return words
}

/** Files (relative to the repo root, sorted) matching a glob with `**`, `*`, `?` and `{a,b}`. */
export function expandGlob(pattern) {
  const parts = pattern.split('/')
  const firstGlob = parts.findIndex((p) => /[*?{[]/.test(p))
  const base = parts.slice(0, firstGlob).join('/') || '.'
  const regex = globToRegExp(pattern)
  const out = []
  const walk = (dir) => {
    let entries
    try {
      entries = fs.readdirSync(path.join(repoRoot, dir), { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue
      const relPath = dir === '.' ? entry.name : `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(relPath)
      else if (regex.test(relPath)) out.push(relPath)
    }
  }
  walk(base)
  return out.sort()
}

function globToRegExp(glob) {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` matches zero or more directories; a trailing `**` matches anything.
      if (glob[i + 2] === '/') {
        re += '(?:[^/]+/)*'
        i += 2
      } else {
        re += '.*'
        i += 1
      }
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else if (c === '{') {
      const end = glob.indexOf('}', i)
      re += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .map((s) => s.replace(/[.+^$()|[\]\\]/g, '\\$&'))
        .join('|')})`
      i = end
    } else re += c.replace(/[.+^$()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${re.replace(/^\.\\\//, '')}$`)
}
