import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import app from '@adonisjs/core/services/app'
import * as appPlugin from '#sdk/plugin'
import * as appRunner from '#sdk/runner'
import * as appTesting from '#sdk/testing'
import * as appAi from '#sdk/ai'
import * as appData from '#sdk/data'
import * as appGoogle from '#sdk/google'
import * as appHttp from '#sdk/http'
import * as appN8n from '#sdk/n8n'
import * as appOauth from '#sdk/oauth'
import * as appChat from '#sdk/chat'
import * as sharedRichText from '#shared/chat/rich_text'
import * as sharedChatTypes from '#shared/chat/types'
import { substitutedOptions } from '#services/runner_context'
import type { LogEntry } from '#plugins/define_plugin'
import * as packagePlugin from '../../../packages/sdk/src/plugin.js'
import * as packageRunner from '../../../packages/sdk/src/runner.js'
import * as packageTesting from '../../../packages/sdk/src/testing/index.js'
import * as packageAi from '../../../packages/sdk/src/ai.js'
import * as packageData from '../../../packages/sdk/src/data.js'
import * as packageGoogle from '../../../packages/sdk/src/google.js'
import * as packageHttp from '../../../packages/sdk/src/http.js'
import * as packageN8n from '../../../packages/sdk/src/n8n.js'
import * as packageOauth from '../../../packages/sdk/src/oauth.js'
import * as packageChat from '../../../packages/sdk/src/chat.js'
import { appPort, type AppPort } from '../../../packages/sdk/src/port.js'
import { appSdkPort } from '#services/sdk/port'
import { definePlugin, field } from '../../../packages/sdk/src/plugin.js'
import { withDeclaredTypes } from '../../../packages/sdk/src/options.js'
import {
  folderTestCommand,
  formSource,
  packageJsonSource,
  packageTsconfigSource,
  testCountOf,
  testSource,
} from '#plugins/scaffold_templates'
import { onlyPluginTests, selectedFiles } from '../../selected_files.js'

/**
 * packages/sdk (`@flowcraft/sdk`): what plugins build against, apart from the app. The app
 * implements it (its `#sdk/*` hold every name the package exports), the package reaches
 * nothing of the app, and the runner receives options with their declared types.
 */

const SDK_SRC = app.makePath('packages/sdk/src')

async function sourcesOf(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

const counter = definePlugin({
  id: 'counter',
  name: 'Counter',
  fullName: 'Counter',
  tags: [],
  description: 'Counts',
  category: 'logic',
  scope: 'user',
  icon: 'plus',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {
    by: field.number({ label: 'By', allowVariables: true }),
    fixed: field.number({ label: 'Fixed' }),
    limits: field.object({ max: field.number({ label: 'Max', allowVariables: true }) }),
    steps: field.list({ size: field.number({ label: 'Size', allowVariable: true }) }),
    note: field.string({ label: 'Note', allowVariables: true }),
  },
  actions: {
    Add: {
      label: 'Add',
      options: { amount: field.number({ label: 'Amount', allowVariables: true }) },
    },
  },
})

test.group('SDK package', () => {
  test('the package imports nothing of the app: its own files, Node and its declared peers', async ({
    assert,
  }) => {
    const manifest = JSON.parse(await readFile(app.makePath('packages/sdk/package.json'), 'utf8'))
    const peers = Object.keys(manifest.peerDependencies ?? {})
    const outside: string[] = []
    for (const file of await sourcesOf(SDK_SRC)) {
      const source = await readFile(file, 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const own =
          specifier.startsWith('.') &&
          !relative(SDK_SRC, resolve(file, '..', specifier)).startsWith('..')
        if (!own && !specifier.startsWith('node:') && !peers.includes(specifier))
          outside.push(`${relative(SDK_SRC, file)}: ${specifier}`)
      }
    }
    assert.deepEqual(outside, [])
  })

  test("the app's #sdk modules reach nothing of tests/: plugins' tests get the app's code", async ({
    assert,
  }) => {
    const fromTests: string[] = []
    const sdk = app.makePath('app/sdk')
    for (const file of await sourcesOf(sdk)) {
      const source = await readFile(file, 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const path = specifier.startsWith('.') ? resolve(file, '..', specifier) : specifier
        if (specifier.startsWith('#tests/') || path.startsWith(app.makePath('tests')))
          fromTests.push(`${relative(sdk, file)}: ${specifier}`)
      }
    }
    assert.deepEqual(fromTests, [])
  })

  test("the app's #sdk modules hold every name the package's exports", ({ assert }) => {
    const pairs: [string, object, object][] = [
      ['plugin', packagePlugin, appPlugin],
      ['runner', packageRunner, appRunner],
      ['testing', packageTesting, appTesting],
      ['ai', packageAi, appAi],
      ['data', packageData, appData],
      ['google', packageGoogle, appGoogle],
      ['http', packageHttp, appHttp],
      ['n8n', packageN8n, appN8n],
      ['oauth', packageOauth, appOauth],
      ['chat', packageChat, appChat],
    ]
    for (const [name, ofPackage, ofApp] of pairs) {
      const missing = Object.keys(ofPackage).filter((key) => !(key in ofApp))
      // The app's runPluginTest is its own (sandbox, storage); the rest is the package's.
      const shared = Object.keys(ofPackage).filter((key) => key in ofApp && key !== 'runPluginTest')
      assert.deepEqual(missing, [], name)
      for (const key of shared) {
        assert.strictEqual((ofApp as any)[key], (ofPackage as any)[key], `${name}.${key}`)
      }
    }
    // The app's own chat code (engine, viewer, embed) uses the package's: one definition.
    for (const [name, ofShared] of [
      ['rich_text', sharedRichText],
      ['types', sharedChatTypes],
    ] as const) {
      const own = Object.keys(ofShared).filter(
        (key) => (ofShared as any)[key] !== (packageChat as any)[key]
      )
      assert.deepEqual(own, [], `#shared/chat/${name}`)
    }
    assert.includeMembers(Object.keys(sharedRichText), ['richTextToMarkdown', 'htmlToRichText'])
    assert.include(Object.keys(sharedChatTypes), 'AI_CREDIT_LIMIT_EXCEEDED_TEXT')
  })

  test("the app's #sdk modules read no configuration or storage: the app gives them through the port", async ({
    assert,
  }) => {
    const internal: string[] = []
    const sdk = app.makePath('app/sdk')
    for (const file of await sourcesOf(sdk)) {
      const source = await readFile(file, 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        if (
          /^#(start|config|models|database)\/|(^#services\/|\/services\/)(storage|sdk\/)/.test(
            specifier
          )
        )
          internal.push(`${relative(sdk, file)}: ${specifier}`)
      }
    }
    assert.deepEqual(internal, [])
    // The helpers with code of their own are the package's, delegating: nothing else is there.
    for (const name of [
      'plugin',
      'runner',
      'chat',
      'ai',
      'ai_fields',
      'data',
      'data_fields',
      'google',
      'google_fields',
      'http',
      'http_fields',
      'n8n',
      'oauth',
      'brain',
      'inputs',
      'slack',
      'slack_users',
      'telegram',
      'knowledge',
      'sessions',
      'workflows',
      'mail',
      'loops',
      'documents',
    ]) {
      const source = await readFile(join(sdk, `${name}.ts`), 'utf8')
      const code = source
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .split('\n')
        .filter((line) => line.trim() && !line.trim().startsWith('//'))
      assert.deepEqual(code, [`export * from '../../packages/sdk/src/${name}.js'`], name)
    }
  })

  test('the app answers every part of the port, and the helpers reach it', async ({ assert }) => {
    const parts: (keyof AppPort)[] = [
      'http',
      'oauth',
      'google',
      'ai',
      'knowledge',
      'data',
      'n8n',
      'brain',
      'limits',
      'sessions',
      'workflows',
      'mail',
      'documents',
    ]
    for (const part of parts) assert.strictEqual(appPort(part), appSdkPort[part], part)
    assert.equal(
      packageGoogle.googleUrl('https://x.test/v1/', '/a', { q: 'b', n: undefined }),
      'https://x.test/v1/a?q=b'
    )
    const lost: string[] = []
    const tools = {
      text: (value: unknown) => `{{$input.${String(value)}}}`,
      lost: (what: string) => lost.push(what),
    }
    assert.deepEqual(packageN8n.comparisonOf('a', 'gt', 2, tools), {
      variableId: '{{$input.a}}',
      comparisonOperator: 'Greater than',
      value: '{{$input.2}}',
    })
    assert.deepEqual(lost, [])
    // A part stood in for (as a package's own tests may) is used until its undo.
    const undo = packageTesting.registerAppPort({
      limits: { slackUsers: () => 3, loopIterations: () => 7 },
    })
    try {
      const { slackUserLimit } = await import('#sdk/slack_users')
      const { loopMaxIterations } = await import('#sdk/loops')
      assert.equal(slackUserLimit(), 3)
      assert.equal(loopMaxIterations(), 7)
    } finally {
      undo()
    }
    assert.strictEqual(appPort('limits'), appSdkPort.limits)
  })

  test('a variable-capable number has one option name; the former one is folded in', ({
    assert,
  }) => {
    assert.isTrue(field.number({ allowVariable: true }).allowVariables)
    assert.notProperty(field.number({ allowVariable: true }), 'allowVariable')
    assert.notProperty(field.number({}), 'allowVariables')
  })

  test('numbers reach the runner as numbers, in objects, lists and actions', ({ assert }) => {
    const options = withDeclaredTypes(counter, {
      action: 'Add',
      by: ' 3 ',
      fixed: 2,
      limits: { max: '10.5' },
      steps: [{ size: '4' }, { size: 'many' }],
      note: '7',
      amount: '',
    })
    assert.deepEqual(options, {
      action: 'Add',
      by: 3,
      fixed: 2,
      limits: { max: 10.5 },
      steps: [{ size: 4 }, {}],
      note: '7',
    })
  })

  test('the engines substitute variables, then give the declared type', async ({ assert }) => {
    const logs: LogEntry[] = []
    const options = await substitutedOptions(
      {
        plugin: counter as any,
        options: {
          by: '{{Step}}',
          note: '{{Step}}',
          limits: { max: '{{Word}}' },
          fixed: '{{None}}',
        },
        variables: [
          { id: 'v1', name: 'Step', value: '5' },
          { id: 'v2', name: 'Word', value: 'many' },
          { id: 'v3', name: 'None' },
        ],
        workspaceId: 'w1',
      },
      logs
    )
    assert.deepEqual(options, { by: 5, note: '5', limits: {} })
    // An empty variable is an empty field; a word is the builder's mistake, said in the log.
    assert.deepEqual(logs, [
      { status: 'error', description: 'Counter: Max is not a number ("many")' },
    ])
  })
})

test.group('Test runs of plugins only', () => {
  test('reads the files given with --files, in each spelling', ({ assert }) => {
    assert.deepEqual(
      selectedFiles([
        'unit',
        '--files',
        'plugins/a/x.spec.ts',
        '--files=tests/b.spec.ts,plugins/c/y.spec.ts',
      ]),
      ['plugins/a/x.spec.ts', 'tests/b.spec.ts', 'plugins/c/y.spec.ts']
    )
  })

  test('skips the database only when every file is a plugin folder test', ({ assert }) => {
    assert.isTrue(onlyPluginTests(['unit', '--files', 'plugins/qr-code/qr_code.spec.ts']))
    assert.isTrue(
      onlyPluginTests(['--files=./plugins/a/x.spec.ts', '--files', 'plugins/b/y.spec.ts'])
    )
    assert.isFalse(onlyPluginTests(['unit']))
    assert.isFalse(
      onlyPluginTests(['--files', 'plugins/a/x.spec.ts', '--files', 'tests/unit/locales.spec.ts'])
    )
    assert.isFalse(onlyPluginTests(['--files', 'plugins']))
  })
})

test.group('Scaffold and docs', () => {
  test('the docs give the test command the scaffold prints, and its count of tests', async ({
    assert,
  }) => {
    const docs = await readFile(app.makePath('docs/plugins.md'), 'utf8')
    assert.include(docs, folderTestCommand('weather'))
    const weather = {
      id: 'weather',
      name: 'Weather',
      slug: 'weather',
      category: 'integration',
      scope: 'user',
      serves: ['bot', 'workflow'] as ('bot' | 'workflow')[],
      credentials: true,
    }
    const count = testCountOf(weather)
    assert.include(docs, `(${count} here`)
    // The test file written has as many tests as the command says.
    for (const scaffold of [
      weather,
      { ...weather, serves: ['bot'] as 'bot'[], credentials: false },
    ])
      assert.lengthOf(testSource(scaffold).match(/^ {2}test\(/gm) ?? [], testCountOf(scaffold))
  })

  test("--form: the form takes the editor's parts from the SDK name of its kind of plugin", ({
    assert,
  }) => {
    const scaffold = {
      id: 'Send SMS',
      name: 'Send SMS',
      slug: 'send-sms',
      category: 'integration',
      scope: 'user',
      serves: ['bot'] as 'bot'[],
      credentials: false,
      form: true,
    }
    const inFolder = formSource(scaffold)
    assert.include(inFolder, `from '#sdk/forms'`)
    assert.include(inFolder, 'export default function SendSmsForm(props: CustomFormProps)')
    assert.include(inFolder, '<BlockTestForm {...props} type="Send SMS" />')
    const asPackage = { ...scaffold, package: { name: 'flowcraft-plugin-sms', sdk: '^0.1.0' } }
    assert.include(formSource(asPackage), `from '@flowcraft/sdk/forms'`)
    // A package with a form compiles TSX against React's types and leaves React to the app.
    const manifest = JSON.parse(packageJsonSource(asPackage))
    assert.equal(manifest.devDependencies['@types/react'], '^19.1.10')
    assert.deepEqual(manifest.peerDependencies, { react: '^19.0.0' })
    const withoutForm = JSON.parse(packageJsonSource({ ...asPackage, form: false }))
    assert.notProperty(withoutForm.devDependencies, '@types/react')
    assert.notProperty(withoutForm, 'peerDependencies')
    const tsconfig = JSON.parse(packageTsconfigSource())
    assert.equal(tsconfig.compilerOptions.jsx, 'react-jsx')
    assert.includeMembers(tsconfig.include, ['src/**/*.tsx'])
    // A slug starting with a digit still names a component.
    assert.include(formSource({ ...scaffold, slug: '2fa-check' }), 'function Plugin2faCheckForm(')
  })
})
