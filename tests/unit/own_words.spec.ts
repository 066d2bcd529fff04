import { test } from '@japa/runner'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

/*
 * The project says in its own words what the product does (issue 31): a comment or a document
 * states the rule it implements, it does not point at the team's specification ("as the spec
 * says", "spec 01, section 9", "the spec's message"), which is not in this repository and
 * which a reader cannot open. docs/departures.md and docs/architecture.md may name the
 * specification to say where the product departs from it; the code's own use of the word (a
 * cron field's `spec`) is not a citation.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** A citation of the specification: its sections, its wording, its rules. */
export const SPEC_CITATION =
  /\bthe spec\b|\bspec['’]s\b|\(spec\)|\(spec: [a-z]|\bspec \d|\bspec section|\bspec[- ]wording|\bspec-style|\bspec (?:messages?|words|defaults?|rules|bounds|log|statuses|fallback)\b|\bspecification['’]s\b|\bdocument 0\d|docs\/spec\b/i

/** Where the project's own text is: code, tests and documents. */
const DIRS = [
  'tests',
  'app',
  'resources',
  'plugins',
  'packages/sdk/src',
  'start',
  'config',
  'database',
  'commands',
  'bin',
  'bench',
  'docs',
]
const TEXT_FILE = /\.(ts|tsx|js|md)$/
/** Documents whose subject is the specification itself: where the product departs from it. */
const ABOUT_THE_SPEC = new Set(['docs/departures.md'])

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules' || name === 'dist' || name === 'screenshots') continue
    if (statSync(path).isDirectory()) filesUnder(path, out)
    else if (TEXT_FILE.test(name) && name !== 'own_words.spec.ts') out.push(path)
  }
  return out
}

function citations() {
  const found = new Map<string, string[]>()
  for (const file of DIRS.flatMap((dir) => filesUnder(join(ROOT, dir)))) {
    const name = relative(ROOT, file)
    if (ABOUT_THE_SPEC.has(name)) continue
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (!SPEC_CITATION.test(line)) return
        found.set(name, [...(found.get(name) ?? []), `${name}:${index + 1}: ${line.trim()}`])
      })
  }
  return found
}

test.group('Own words', () => {
  test('no comment or document cites the specification', ({ assert }) => {
    assert.deepEqual(
      [...citations()].flatMap(([, lines]) => lines),
      []
    )
  })

  test('the rule catches the ways the specification is cited', ({ assert }) => {
    for (const line of [
      '/** Empty groups are removed automatically (spec). */',
      "refuses with the spec's message",
      'FREE carries the fallback values (document 01, section 9)',
      '(spec section 5)',
      'entries with an empty key are skipped (spec 5)',
      'As the spec says: insert does nothing without fields',
      'see docs/spec/01_app_shell.md',
      "test('a new bot: default settings follow the spec'",
      "test('without a key the fetcher fails with the spec words'",
    ]) {
      assert.isTrue(SPEC_CITATION.test(line), line)
    }
    for (const line of [
      'function parseValue(expression: string, spec: FieldSpec, raw: string)',
      'return named + (spec.namesStartAt ?? 0)',
      'export async function agentWorkflow(spec: {',
      "import { test } from '@japa/runner' // tests/unit/x.spec.ts",
    ]) {
      assert.isFalse(SPEC_CITATION.test(line), line)
    }
  })
})
