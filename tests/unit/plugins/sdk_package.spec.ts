import { test } from '@japa/runner'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import app from '@adonisjs/core/services/app'
import * as appPlugin from '#sdk/plugin'
import * as appRunner from '#sdk/runner'
import * as appTesting from '#sdk/testing'
import { substitutedOptions } from '#services/runner_context'
import type { LogEntry } from '#plugins/define_plugin'
import * as packagePlugin from '../../../packages/sdk/src/plugin.js'
import * as packageRunner from '../../../packages/sdk/src/runner.js'
import * as packageTesting from '../../../packages/sdk/src/testing/index.js'
import { definePlugin, field } from '../../../packages/sdk/src/plugin.js'
import { withDeclaredTypes } from '../../../packages/sdk/src/options.js'
import { folderTestCommand, testCountOf, testSource } from '#plugins/scaffold_templates'
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
  test('the package imports nothing of the app: only its own files and Node', async ({
    assert,
  }) => {
    const outside: string[] = []
    for (const file of await sourcesOf(SDK_SRC)) {
      const source = await readFile(file, 'utf8')
      for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const own =
          specifier.startsWith('.') &&
          !relative(SDK_SRC, resolve(file, '..', specifier)).startsWith('..')
        if (!own && !specifier.startsWith('node:'))
          outside.push(`${relative(SDK_SRC, file)}: ${specifier}`)
      }
    }
    assert.deepEqual(outside, [])
  })

  test("the app's #sdk modules hold every name the package's exports", ({ assert }) => {
    const pairs: [string, object, object][] = [
      ['plugin', packagePlugin, appPlugin],
      ['runner', packageRunner, appRunner],
      ['testing', packageTesting, appTesting],
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
    // The spec written has as many tests as the command says.
    for (const scaffold of [
      weather,
      { ...weather, serves: ['bot'] as 'bot'[], credentials: false },
    ])
      assert.lengthOf(testSource(scaffold).match(/^ {2}test\(/gm) ?? [], testCountOf(scaffold))
  })
})
