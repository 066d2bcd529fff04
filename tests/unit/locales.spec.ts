import { test } from '@japa/runner'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import i18next from 'i18next'
import { LANGUAGES } from '#shared/workspace_roles'

/*
 * The nine languages stay complete: the React catalogues (resources/locales/<lang>/
 * translation.json), the server messages shown by the browser (resources/locales/<lang>/
 * server.json, keyed by the exact English text) and the server's validation messages
 * (resources/lang/<lang>/validator.json). A plural key has the forms its own language needs:
 * i18next picks `key_<category>` with Intl.PluralRules, so a form missing (Romanian `_few`,
 * the Romance languages' `_many`) falls back to English.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const LOCALES = join(ROOT, 'resources/locales')
const LANG = join(ROOT, 'resources/lang')
const APP = join(ROOT, 'app')
const PLUGINS = join(ROOT, 'plugins')
/**
 * Not the server's messages to people: the plugin contract, the sandbox, the engines' run
 * logs (data kept in results, like the plugins' logs), the API description.
 */
const SKIPPED_APP_DIRS = ['plugins', 'sandbox', 'engine'].map((dir) => join(APP, dir))
/** The OpenAPI description (openapi.ts and its per-area openapi_*.ts parts). */
const isSkippedFile = (path: string) => /[\\/]services[\\/]openapi(_\w+)?\.ts$/.test(path)

type Catalogue = Record<string, unknown>

function readJson(path: string): Catalogue {
  return JSON.parse(readFileSync(path, 'utf8')) as Catalogue
}

/** Nested objects flattened to dotted keys; leaves kept as they are (checked to be strings). */
function flatten(value: Catalogue, prefix = '', out = new Map<string, unknown>()) {
  for (const [key, child] of Object.entries(value)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (child && typeof child === 'object' && !Array.isArray(child)) {
      flatten(child as Catalogue, path, out)
    } else {
      out.set(path, child)
    }
  }
  return out
}

function sorted(values: Iterable<string>) {
  return [...new Set(values)].sort()
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/

/** The plural categories i18next asks for in `lang` (what Intl.PluralRules selects from). */
function pluralCategories(lang: string): string[] {
  return new Intl.PluralRules(lang).resolvedOptions().pluralCategories
}

/**
 * Each plural key's base and the categories it has: a key `x_<category>` is a plural form
 * when `x_other` exists too (i18next needs `_other` in every language).
 */
function pluralForms(catalogue: Map<string, unknown>): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>()
  for (const key of catalogue.keys()) {
    const match = PLURAL_SUFFIX.exec(key)
    if (!match) continue
    const base = key.slice(0, match.index)
    if (!catalogue.has(`${base}_other`)) continue
    if (!forms.has(base)) forms.set(base, new Set())
    forms.get(base)!.add(match[1])
  }
  return forms
}

/**
 * The plural keys of one language's catalogue against its categories: every form it needs,
 * none it never uses (`_zero`, which i18next reads for a count of 0 in any language, may be
 * added). `english` names the plural keys the language must have at all.
 */
function pluralProblems(
  where: string,
  lang: string,
  catalogue: Map<string, unknown>,
  english: Map<string, unknown>
): string[] {
  const needed = pluralCategories(lang)
  const forms = pluralForms(catalogue)
  for (const base of pluralForms(english).keys()) {
    if (!forms.has(base)) forms.set(base, new Set())
  }
  const problems: string[] = []
  for (const [base, has] of forms) {
    for (const category of needed) {
      if (!has.has(category)) problems.push(`${where}: "${base}" has no "_${category}" form`)
    }
    for (const category of has) {
      if (!needed.includes(category) && category !== 'zero') {
        problems.push(`${where}: "${base}_${category}" is a form ${lang} never uses`)
      }
    }
  }
  return problems
}

/** The English key a language's key is compared with: a plural form with its `_other`. */
function englishKeyOf(key: string, english: Map<string, unknown>) {
  if (english.has(key)) return key
  const match = PLURAL_SUFFIX.exec(key)
  const other = match ? `${key.slice(0, match.index)}_other` : undefined
  return other && english.has(other) ? other : undefined
}

/** i18next interpolations ({{name}}) and the tags <Trans> fills in (<strong>, <mlink>). */
function i18nextTokens(text: string) {
  const placeholders = [...text.matchAll(/{{\s*([^{}\s,]+)[^{}]*}}/g)].map((m) => `{{${m[1]}}}`)
  const tags = [...text.matchAll(/<\/?([A-Za-z][\w-]*)\s*\/?>/g)].map((m) => `<${m[1]}>`)
  return sorted([...placeholders, ...tags])
}

/** ICU arguments: {field}, {count, plural, ...}. */
function icuPlaceholders(text: string) {
  return sorted([...text.matchAll(/{\s*([A-Za-z_]\w*)\s*[,}]/g)].map((m) => m[1]))
}

/**
 * Compares every language's catalogue with English: same keys, the same placeholders per
 * key, no empty or non-text value. Plural forms follow the language, not English (checked by
 * pluralProblems): a form English lacks is compared with English's `_other`, and an English
 * form the language does not use need not be there. Returns the problems, one a line.
 */
function compareCatalogues(
  file: (lang: string) => string,
  tokens: (text: string) => string[]
): string[] {
  const problems: string[] = []
  const english = flatten(readJson(file('en')))
  for (const lang of LANGUAGES) {
    const path = file(lang)
    const where = relative(ROOT, path)
    if (!existsSync(path)) {
      problems.push(`${where}: missing`)
      continue
    }
    const catalogue = flatten(readJson(path))
    const englishPlurals = pluralForms(english)
    for (const key of english.keys()) {
      const match = PLURAL_SUFFIX.exec(key)
      if (match && englishPlurals.has(key.slice(0, match.index))) continue
      if (!catalogue.has(key)) problems.push(`${where}: missing key "${key}"`)
    }
    problems.push(...pluralProblems(where, lang, catalogue, english))
    for (const [key, value] of catalogue) {
      const englishKey = englishKeyOf(key, english)
      if (!englishKey) {
        problems.push(`${where}: key "${key}" is not in English`)
        continue
      }
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${where}: "${key}" is empty or not text`)
        continue
      }
      const expected = tokens(String(english.get(englishKey)))
      const actual = tokens(value)
      if (expected.join(' ') !== actual.join(' ')) {
        problems.push(
          `${where}: "${key}" has placeholders [${actual.join(', ')}], English has [${expected.join(', ')}]`
        )
      }
    }
  }
  return problems
}

/*
 * The English messages in the server's source: a small scanner over the TypeScript text
 * that knows strings, template literals, comments and brackets, so that it can read the
 * string literals of one expression.
 */

interface Literal {
  text: string
  /** the expression's own value: not inside a call, an index or an object (grouping is fine) */
  topLevel: boolean
  /** compared (`x === 'a'`), so a value, not a message */
  compared: boolean
}

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' }

/** Index just past the string or template literal starting at `start`. */
function skipQuoted(src: string, start: number): { end: number; text?: string } {
  const quote = src[start]
  let index = start + 1
  let text = ''
  while (index < src.length && src[index] !== quote) {
    if (src[index] === '\\') {
      const next = src[index + 1]
      text += next === 'n' ? '\n' : next === 't' ? '\t' : next
      index += 2
      continue
    }
    if (quote === '`' && src[index] === '$' && src[index + 1] === '{') {
      index = skipBalanced(src, index + 1)
      continue
    }
    text += src[index]
    index++
  }
  return { end: index + 1, text: quote === '`' ? undefined : text }
}

/** Index just past the bracket that closes the one at `start`. */
function skipBalanced(src: string, start: number): number {
  let index = start
  let depth = 0
  while (index < src.length) {
    const char = src[index]
    if (char === "'" || char === '"' || char === '`') {
      index = skipQuoted(src, index).end
      continue
    }
    if (char === '/' && (src[index + 1] === '/' || src[index + 1] === '*')) {
      index = skipComment(src, index)
      continue
    }
    if (char in CLOSERS) depth++
    if (char === ')' || char === ']' || char === '}') {
      depth--
      if (depth === 0) return index + 1
    }
    index++
  }
  return index
}

function skipComment(src: string, start: number): number {
  if (src[start + 1] === '/') {
    const end = src.indexOf('\n', start)
    return end === -1 ? src.length : end
  }
  const end = src.indexOf('*/', start + 2)
  return end === -1 ? src.length : end + 2
}

/**
 * The string literals of the expression starting at `start` (after `title:` or `(`), up to
 * the `,` `;` or closing bracket that ends it. Template literals are skipped: they are
 * built from data and cannot be looked up.
 */
function expressionLiterals(src: string, start: number): { literals: Literal[]; end: number } {
  const literals: Literal[] = []
  // One entry per open bracket: true for grouping parentheses, `(a ? 'x' : 'y')`.
  const open: boolean[] = []
  let index = start
  while (index < src.length) {
    const char = src[index]
    if (char === "'" || char === '"' || char === '`') {
      const { end, text } = skipQuoted(src, index)
      if (text !== undefined) {
        const before = src.slice(Math.max(start, index - 4), index)
        const after = src.slice(end, end + 4)
        literals.push({
          text,
          topLevel: open.every((grouping) => grouping),
          compared: /[=!]=\s*$/.test(before) || /^\s*[=!]=/.test(after),
        })
      }
      index = end
      continue
    }
    if (char === '/' && (src[index + 1] === '/' || src[index + 1] === '*')) {
      index = skipComment(src, index)
      continue
    }
    if (char in CLOSERS) {
      const previous = src.slice(start, index).trimEnd().at(-1) ?? ''
      open.push(char === '(' && !/[\w$)\]]/.test(previous))
    } else if (char === ')' || char === ']' || char === '}') {
      if (open.length === 0) break
      open.pop()
    } else if ((char === ',' || char === ';') && open.length === 0) break
    index++
  }
  return { literals, end: index }
}

/** The literals that are the expression's possible values, not compared or inside a call. */
function messagesAt(src: string, start: number) {
  return expressionLiterals(src, start)
    .literals.filter((l) => l.topLevel && !l.compared && l.text.trim())
    .map((l) => l.text)
}

/** The English messages one source file can send to the browser. */
export function serverMessages(src: string): string[] {
  const found: string[] = []
  // title: 'x', description: cond ? 'a' : 'b', message: list[0] ?? 'Invalid input'
  // (and `const message = '...'`, later flashed)
  const property =
    /\b(?:title|description|message)\s*:|\bconst\s+(?:title|description|message)\s*=/g
  for (const match of src.matchAll(property)) {
    found.push(...messagesAt(src, match.index + match[0].length))
  }
  // new AppError('x', {...}), AppError.notFound('x'), AppError.forbidden('x'),
  // fail(ctx, 'title', 'description'): the literal arguments
  for (const match of src.matchAll(
    /\bnew\s+AppError\s*\(|\bAppError\.\w+\s*\(|\bfail\s*\(\s*ctx\s*,/g
  )) {
    let index = match.index + match[0].length
    while (index < src.length) {
      found.push(...messagesAt(src, index))
      const { end } = expressionLiterals(src, index)
      if (src[end] !== ',') break
      index = end + 1
    }
  }
  // const FEATURE_MESSAGES = { key: 'x', ... }: the values of a *_MESSAGES table
  for (const match of src.matchAll(/\bconst\s+\w*MESSAGES\b[^=]*=\s*{/g)) {
    const open = match.index + match[0].length - 1
    const body = src.slice(open + 1, skipBalanced(src, open) - 1)
    const entries = /(?:^|[{,])(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*(?:\w+|'[^']*'|"[^"]*")\s*:/g
    for (const entry of body.matchAll(entries)) {
      found.push(...messagesAt(body, entry.index + entry[0].length))
    }
  }
  return found
}

function sourceFiles(dir: string): string[] {
  if (SKIPPED_APP_DIRS.includes(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !isSkippedFile(path) ? [path] : []
  })
}

test.group('Locales', () => {
  test('every language has each React catalogue with the English keys and placeholders', ({
    assert,
  }) => {
    // translation.json plus one file per feature (viewer.json, ...), merged by i18n.ts.
    const files = readdirSync(join(LOCALES, 'en')).filter(
      (name) => name.endsWith('.json') && name !== 'server.json'
    )
    assert.include(files, 'translation.json')
    // And the strings the editors' panels load with their code (later/, panel_strings.ts).
    const later = readdirSync(join(LOCALES, 'en', 'later')).map((name) => join('later', name))
    const problems = [...files, ...later].flatMap((name) =>
      compareCatalogues((lang) => join(LOCALES, lang, name), i18nextTokens)
    )
    assert.deepEqual(problems, [])
    // Feature files share the `translation` namespace: their top-level keys must not collide.
    const owners = new Map<string, string>()
    for (const name of files) {
      for (const key of Object.keys(readJson(join(LOCALES, 'en', name)))) {
        assert.isUndefined(owners.get(key), `"${key}" is in ${owners.get(key)} and ${name}`)
        owners.set(key, name)
      }
    }
  })

  test('every plural key has the forms its language needs, plugins included', async ({
    assert,
  }) => {
    // What the check stands on: Romanian counts 2-19 (and 101-119...) as "few".
    assert.deepEqual(pluralCategories('ro').sort(), ['few', 'one', 'other'])
    const files = readdirSync(join(LOCALES, 'en')).filter((name) => name.endsWith('.json'))
    const problems: string[] = []
    let plurals = 0
    for (const name of files) {
      const english = flatten(readJson(join(LOCALES, 'en', name)))
      // A count followed by its noun ("{{count}} stores") reads wrong for 1 (and for
      // Romanian 20+) unless the key has plural forms.
      const counted = pluralForms(english)
      for (const [key, value] of english) {
        const match = PLURAL_SUFFIX.exec(key)
        if (match && counted.has(key.slice(0, match.index))) continue
        if (/\{\{count\}\}\s*\p{L}/u.test(String(value))) {
          problems.push(`resources/locales/en/${name}: "${key}" counts a noun without plural forms`)
        }
      }
      for (const lang of LANGUAGES) {
        const path = join(LOCALES, lang, name)
        if (!existsSync(path)) continue
        const catalogue = flatten(readJson(path))
        problems.push(...pluralProblems(relative(ROOT, path), lang, catalogue, english))
        // i18next itself finds a text of this language for each count, never English's.
        const i18n = i18next.createInstance()
        await i18n.init({
          lng: lang,
          fallbackLng: false,
          resources: { [lang]: { translation: readJson(path) } },
          interpolation: { escapeValue: false },
        })
        for (const base of pluralForms(english).keys()) {
          plurals++
          for (const count of [0, 1, 2, 5, 19, 20, 21, 100, 101, 119, 120, 1_000_000]) {
            const text = i18n.t(base, { count, formatted: String(count) })
            if (text === base)
              problems.push(`${relative(ROOT, path)}: "${base}" has no text for ${count}`)
          }
        }
      }
    }
    // Plugin catalogues (plugins/<id>/locales/<lang>.json) follow the same rule.
    for (const plugin of readdirSync(PLUGINS)) {
      const dir = join(PLUGINS, plugin, 'locales')
      if (!existsSync(join(dir, 'en.json'))) continue
      const english = flatten(readJson(join(dir, 'en.json')))
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.json'))) {
        const path = join(dir, name)
        const lang = name.replace(/\.json$/, '')
        problems.push(
          ...pluralProblems(relative(ROOT, path), lang, flatten(readJson(path)), english)
        )
      }
    }
    assert.isAbove(plurals, 0, 'the check finds the plural keys')
    assert.deepEqual(problems, [])
  })

  test('every plugin has a catalogue per language with the English keys and placeholders', ({
    assert,
  }) => {
    // A key missing in a language would show the builder English in the middle of a form.
    let plugins = 0
    const problems: string[] = []
    for (const plugin of readdirSync(PLUGINS)) {
      const dir = join(PLUGINS, plugin, 'locales')
      if (!existsSync(join(dir, 'en.json'))) continue
      plugins++
      problems.push(...compareCatalogues((lang) => join(dir, `${lang}.json`), i18nextTokens))
      for (const name of readdirSync(dir)) {
        const lang = name.replace(/\.json$/, '')
        if (!(LANGUAGES as readonly string[]).includes(lang)) {
          problems.push(`plugins/${plugin}/locales/${name}: not one of the app's languages`)
        }
      }
    }
    assert.isAbove(plugins, 0, 'the check finds the plugin catalogues')
    assert.deepEqual(problems, [])
  })

  test('every language has server.json with the English keys, translated', ({ assert }) => {
    const problems = compareCatalogues((lang) => join(LOCALES, lang, 'server.json'), i18nextTokens)
    assert.deepEqual(problems, [])
    const english = readJson(join(LOCALES, 'en', 'server.json'))
    for (const [key, value] of Object.entries(english)) {
      assert.equal(value, key, `en/server.json maps "${key}" to itself`)
    }
    assert.isAbove(Object.keys(english).length, 0)
  })

  test('every validator.json has the English keys and ICU placeholders', ({ assert }) => {
    const problems = compareCatalogues(
      (lang) => join(LANG, lang, 'validator.json'),
      icuPlaceholders
    )
    assert.deepEqual(problems, [])
  })

  test('the scanner finds the server messages and skips the rest', ({ assert }) => {
    const src = `
      throw new AppError('Plain title', { status: 409, description: 'Plain description.' })
      session.flash('toast', { type: 'success', title: kind === 'member' ? 'Added' : 'Sent', description: workspace.name })
      ctx.flash('toast', { title: \`Workspace "\${name}" created\`, description: "Double" })
      const msg = { title: 'Object title', description:
        'Next line' }
      const message = 'Const message'
      send({ message: list[0]?.message ?? 'Fallback' })
      return { ok, message: result.message ?? (result.ok ? 'Works' : 'Refused') }
      log({ title: format('Not a message', x) })
      throw AppError.notFound('Missing thing')
      return fail(ctx, 'Fail title', 'Fail description')
      const FEATURE_MESSAGES = {
        folders: 'Folders message.', // comment
        other: "Other message.",
      }
      interface X { title: string; description?: string }
    `
    assert.deepEqual(serverMessages(src).sort(), [
      'Added',
      'Const message',
      'Double',
      'Fail description',
      'Fail title',
      'Fallback',
      'Folders message.',
      'Missing thing',
      'Next line',
      'Object title',
      'Other message.',
      'Plain description.',
      'Plain title',
      'Refused',
      'Sent',
      'Works',
    ])
  })

  test('every English message of the server is a key of server.json', ({ assert }) => {
    const keys = new Set(Object.keys(readJson(join(LOCALES, 'en', 'server.json'))))
    const missing: string[] = []
    let count = 0
    for (const file of sourceFiles(APP)) {
      for (const message of serverMessages(readFileSync(file, 'utf8'))) {
        count++
        if (!keys.has(message)) missing.push(`${relative(ROOT, file)}: "${message}"`)
      }
    }
    assert.isAbove(count, 20, 'the scanner finds the server messages')
    assert.deepEqual(
      missing,
      [],
      'add these messages to resources/locales/<lang>/server.json in every language'
    )
  })
})
