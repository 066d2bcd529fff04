/*
| node --import=ts-node-maintained/register/esm bench/editor_chunks.ts [assets dir]
| The bytes each editor fetches on open, from the Vite manifest of a build (public/assets by
| default, made by `npm run test:assets`): a manifest entry's chunk and every chunk it imports
| statically, raw and as served (brotli, the .br copy the app sends). docs/benchmarks/editor.md.
*/
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

interface Chunk {
  file: string
  imports?: string[]
  css?: string[]
}

const dir = process.argv[2] ?? 'public/assets'
const manifest: Record<string, Chunk> = JSON.parse(
  readFileSync(join(dir, '.vite/manifest.json'), 'utf8')
)

/** A source path, or the name of a shared chunk ('_bot_editor', keyed with its hash). */
function keyOf(name: string) {
  if (manifest[name]) return name
  const key = Object.keys(manifest).find((candidate) => candidate.startsWith(`${name}-`))
  if (!key) throw new Error(`${name} is not in the manifest`)
  return key
}

function closure(keys: string[]) {
  const files = new Set<string>()
  const queue = keys.map(keyOf)
  const seen = new Set<string>()
  while (queue.length) {
    const key = queue.pop()!
    if (seen.has(key)) continue
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) throw new Error(`${key} is not in the manifest`)
    files.add(chunk.file)
    for (const css of chunk.css ?? []) files.add(css)
    queue.push(...(chunk.imports ?? []))
  }
  return files
}

function bytes(files: Set<string>, skip = new Set<string>()) {
  let raw = 0
  let brotli = 0
  for (const file of files) {
    if (skip.has(file)) continue
    const path = join(dir, file)
    raw += statSync(path).size
    brotli += existsSync(`${path}.br`) ? statSync(`${path}.br`).size : statSync(path).size
  }
  return { raw, brotli }
}

const app = closure(['resources/app.tsx'])
const groups: [string, string[]][] = [
  ['app entry (every page)', ['resources/app.tsx']],
  ['bot editor on open (page, editor)', ['resources/pages/bots/edit.tsx', '_bot_editor']],
  [
    'bot editor block settings (lazy, idle after open)',
    ['resources/features/bot_editor/block_settings.tsx'],
  ],
]
// The workflow editor became a chunk of its own, loaded by the page (as the bot editor's).
groups.push([
  'workflow editor on open (page, editor)',
  Object.keys(manifest).some((key) => key.startsWith('_workflow_editor-'))
    ? ['resources/pages/workflows/edit.tsx', '_workflow_editor']
    : ['resources/pages/workflows/edit.tsx'],
])
if (manifest['resources/features/workflow_editor/node_settings.tsx']) {
  groups.push([
    'workflow editor node settings (lazy, idle after open)',
    ['resources/features/workflow_editor/node_settings.tsx'],
  ])
}
const codeEditorKey = Object.keys(manifest).find((key) => key.endsWith('code_editor_view.tsx'))
if (codeEditorKey) groups.push(['code editor (lazy, first code field)', [codeEditorKey]])

console.log('| chunks | raw bytes | brotli bytes |')
console.log('|---|---:|---:|')
for (const [name, keys] of groups) {
  const files = closure(keys)
  // Beyond the app entry, which every page has loaded already.
  const size = name.startsWith('app entry') ? bytes(files) : bytes(files, app)
  console.log(
    `| ${name} | ${size.raw.toLocaleString('en')} | ${size.brotli.toLocaleString('en')} |`
  )
}
