import { test } from '@japa/runner'
import { errors } from '@vinejs/vine'
import { field, cleanKeyValue, keyValueToRecord, isShown } from '#plugins/fields'
import { memoryAi } from '#plugins/testing/bot_context'
import { definePlugin, errorToLog, runSafely, slugOf, type Runner } from '#plugins/define_plugin'
import {
  unsubstitutedKeysOf,
  defaultsOf,
  formOf,
  itemsValidatorFor,
  localeOf,
  validatorFor,
  writtenVariablesOf,
} from '#plugins/derive'

const qrCode = definePlugin({
  id: 'qr-code',
  name: 'QR code',
  fullName: 'QR code',
  tags: [],
  category: 'integration',
  scope: 'user',
  version: 1,
  serves: ['bot', 'workflow'],
  options: {
    data: field.string({ label: 'Data', required: true, allowVariables: true, maxLength: 20 }),
    size: field.number({
      label: 'Size',
      min: 64,
      max: 1024,
      defaultValue: 256,
      allowVariable: true, // the former name, still accepted
    }),
    margin: field.number({ label: 'Margin', min: 0, max: 10 }),
    format: field.enum({
      label: 'Format',
      options: ['png', { label: 'SVG image', value: 'svg' }],
      defaultValue: 'png',
    }),
    transparent: field.boolean({ label: 'Transparent', defaultValue: false }),
    color: field.string({
      label: 'Colour',
      required: true,
      showIf: { field: 'transparent', equals: false },
      defaultValue: '#000000',
    }),
    saveUrlInVariableId: field.variable({ label: 'Save the image URL in', writes: true }),
    readFromVariableId: field.variable({ label: 'Read from' }),
    extra: field.keyValue({ label: 'Extra' }),
    labels: field.object({
      title: field.string({ label: 'Title', defaultValue: 'My code' }),
      caption: field.string({ label: 'Caption' }),
    }),
    steps: field.list(
      {
        name: field.string({ label: 'Step name', required: true }),
        weight: field.number({ label: 'Weight', max: 5 }),
        outputVariableId: field.variable({ label: 'Output', writes: true }),
      },
      { label: 'Steps', itemLabel: 'step', min: 1, max: 3 }
    ),
    script: field.code({ label: 'Script', lang: 'javascript' }),
    config: field.code({ label: 'Config', lang: 'json' }),
    responseMapping: field.responseMapping({
      label: 'Save in variables',
      from: ['Message content', 'Total tokens'],
    }),
    model: field.enum({
      label: 'Model',
      options: [],
      optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'] },
    }),
  },
  credentials: {
    apiKey: field.string({ label: 'API key', secret: true, required: true }),
    baseUrl: field.string({ label: 'Base URL', defaultValue: 'https://api.example.com/v1' }),
  },
})

async function failures(promise: Promise<unknown>) {
  try {
    await promise
    return []
  } catch (error) {
    if (error instanceof errors.E_VALIDATION_ERROR) {
      return (error.messages as { field: string; message: string }[]).map(
        (m) => `${m.field}: ${m.message}`
      )
    }
    throw error
  }
}

test.group('Field DSL: defaults and validation', () => {
  test('defaults hold every declared default, nested objects included', ({ assert }) => {
    assert.deepEqual(defaultsOf(qrCode), {
      size: 256,
      format: 'png',
      transparent: false,
      color: '#000000',
      labels: { title: 'My code' },
    })
    // Each call returns fresh objects: a block's options never share references.
    const a = defaultsOf(qrCode) as any
    a.labels.title = 'changed'
    assert.equal((defaultsOf(qrCode) as any).labels.title, 'My code')
  })

  test('the run validator accepts a full configuration and keeps unknown keys', async ({
    assert,
  }) => {
    const options = {
      ...defaultsOf(qrCode),
      data: 'hello',
      steps: [{ id: 's1', name: 'one', weight: 2, unknownKey: 1 }],
      importedFromElsewhere: { keep: ['me'] },
      format: 'svg',
    }
    const valid = await validatorFor(qrCode).validate(options)
    assert.deepEqual((valid as any).importedFromElsewhere, { keep: ['me'] })
    assert.equal((valid as any).steps[0].unknownKey, 1)
    assert.equal(valid.format, 'svg')
  })

  test('numbers: bounds are enforced, a {{variable}} is accepted where allowed', async ({
    assert,
  }) => {
    const base = { data: 'x', steps: [{ name: 'a' }] }
    const validator = validatorFor(qrCode)
    assert.deepEqual(await failures(validator.validate({ ...base, size: '{{Size}}' })), [])
    assert.deepEqual(await failures(validator.validate({ ...base, size: 2000 })), [
      'size: Size must be at most 1024',
    ])
    assert.deepEqual(await failures(validator.validate({ ...base, size: 10 })), [
      'size: Size must be at least 64',
    ])
    assert.deepEqual(await failures(validator.validate({ ...base, size: 'big' })), [
      'size: Size must be a number or a variable',
    ])
    // A numeric string is stored as a number.
    assert.equal((await validator.validate({ ...base, size: '512' })).size, 512)
    // Without allowVariables a variable is refused.
    assert.lengthOf(await failures(validator.validate({ ...base, margin: '{{Margin}}' })), 1)
    assert.deepEqual(await failures(validator.validate({ ...base, margin: 11 })), [
      'margin: Margin must be at most 10',
    ])
  })

  test('required fields, list bounds and messages that name the label', async ({ assert }) => {
    const messages = await failures(
      validatorFor(qrCode).validate({ data: '  ', steps: [{ weight: 9 }] })
    )
    assert.sameMembers(messages, [
      'data: Data is required',
      'steps.0.name: Step name is required',
      'steps.0.weight: Weight must be at most 5',
    ])
    assert.deepEqual(await failures(validatorFor(qrCode).validate({ data: 'x', steps: [] })), [
      'steps: Steps needs at least 1 items',
    ])
    assert.deepEqual(
      await failures(
        validatorFor(qrCode).validate({
          data: 'x',
          steps: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }],
        })
      ),
      ['steps: Steps accepts at most 3 items']
    )
    assert.deepEqual(
      await failures(
        validatorFor(qrCode).validate({ data: 'x'.repeat(21), steps: [{ name: 'a' }] })
      ),
      ['data: Data must be at most 20 characters long']
    )
    assert.deepEqual(
      await failures(
        validatorFor(qrCode).validate({ data: 'x', steps: [{ name: 'a' }], format: 'gif' })
      ),
      ['format: Format must be one of png, svg']
    )
  })

  test('a hidden required field is not required', async ({ assert }) => {
    const base = { data: 'x', steps: [{ name: 'a' }] }
    assert.deepEqual(
      await failures(validatorFor(qrCode).validate({ ...base, transparent: false, color: '' })),
      ['color: Colour is required']
    )
    assert.deepEqual(
      await failures(validatorFor(qrCode).validate({ ...base, transparent: true, color: '' })),
      []
    )
  })

  test('the save validator lets drafts be incomplete but keeps types and bounds', async ({
    assert,
  }) => {
    const save = validatorFor(qrCode, { mode: 'save' })
    assert.deepEqual(await failures(save.validate({})), [])
    assert.deepEqual(await failures(save.validate({ steps: [] })), [])
    assert.deepEqual(await failures(save.validate({ size: 5000 })), [
      'size: Size must be at most 1024',
    ])
    // Imports carry null for cleared fields.
    assert.deepEqual(await failures(save.validate({ data: null, margin: null, labels: null })), [])
  })

  test('json code must parse unless it holds variables; dynamic enums take any string', async ({
    assert,
  }) => {
    const base = { data: 'x', steps: [{ name: 'a' }] }
    const validator = validatorFor(qrCode)
    assert.deepEqual(await failures(validator.validate({ ...base, config: '{"a":' })), [
      'config: Config must be valid JSON',
    ])
    assert.deepEqual(await failures(validator.validate({ ...base, config: '{"a": {{A}}}' })), [])
    assert.deepEqual(await failures(validator.validate({ ...base, model: 'gpt-4o-mini' })), [])
  })

  test('blocks with actions validate the chosen action', async ({ assert }) => {
    const openai = definePlugin({
      id: 'openai-like',
      name: 'AI',
      fullName: 'AI',
      tags: [],
      category: 'integration',
      scope: 'user',
      version: 1,
      serves: ['bot'],
      credentials: { apiKey: field.string({ label: 'API key', secret: true }) },
      actions: {
        'Create chat completion': {
          label: 'Create chat completion',
          options: {
            temperature: field.number({ label: 'Temperature', min: 0, max: 2, defaultValue: 1 }),
          },
        },
        'Create speech': {
          label: 'Create speech',
          options: { voice: field.enum({ label: 'Voice', options: ['alloy', 'echo'] }) },
        },
      },
    })
    assert.deepEqual(defaultsOf(openai, 'Create chat completion'), {
      action: 'Create chat completion',
      temperature: 1,
    })
    const validator = validatorFor(openai)
    assert.deepEqual(
      await failures(validator.validate({ action: 'Create chat completion', temperature: 3 })),
      ['temperature: Temperature must be at most 2']
    )
    assert.deepEqual(
      await failures(validator.validate({ action: 'Create speech', voice: 'nova' })),
      ['voice: Voice must be one of alloy, echo']
    )
    // Fields of another action are not checked (they are kept as unknown keys).
    assert.deepEqual(
      await failures(
        validator.validate({ action: 'Create speech', temperature: 3, credentialsId: 'c1' })
      ),
      []
    )
    assert.deepEqual(await failures(validator.validate({ action: 'Nope' })), [
      'action: Action must be one of Create chat completion, Create speech',
    ])
  })

  test('items of a block are validated with their own bounds', async ({ assert }) => {
    const ab = definePlugin({
      id: 'ab',
      name: 'AB',
      fullName: 'AB',
      tags: [],
      category: 'logic',
      scope: 'user',
      version: 1,
      serves: ['bot'],
      items: {
        fields: { path: field.enum({ label: 'Path', options: ['a', 'b'], required: true }) },
        min: 2,
        max: 2,
      },
    })
    assert.deepEqual(
      await failures(
        itemsValidatorFor(ab).validate({
          items: [
            { id: '1', path: 'a' },
            { id: '2', path: 'b' },
          ],
        })
      ),
      []
    )
    assert.deepEqual(
      await failures(itemsValidatorFor(ab).validate({ items: [{ id: '1', path: 'a' }] })),
      ['items: Items needs at least 2 items']
    )
    assert.deepEqual(
      await failures(
        itemsValidatorFor(ab).validate({
          items: [
            { id: '1', path: 'a' },
            { id: '2', path: 'c' },
          ],
        })
      ),
      ['items.1.path: Path must be one of a, b']
    )
  })
})

test.group('Field DSL: form, written variables, helpers', () => {
  test('the form description is plain JSON with fields in order', ({ assert }) => {
    const form = formOf(qrCode)
    assert.deepEqual(JSON.parse(JSON.stringify(form)), form)
    assert.deepEqual(
      form.fields.map((f) => f.name),
      Object.keys(qrCode.options)
    )
    const size = form.fields.find((f) => f.name === 'size')!
    assert.deepInclude(size, {
      kind: 'number',
      label: 'Size',
      min: 64,
      max: 1024,
      allowVariables: true,
      i18nKey: 'fields.size',
    })
    const format = form.fields.find((f) => f.name === 'format')!
    assert.deepEqual(format.options, [
      { label: 'png', value: 'png' },
      { label: 'SVG image', value: 'svg' },
    ])
    const color = form.fields.find((f) => f.name === 'color')!
    assert.deepEqual(color.showIf, { field: 'transparent', equals: false })
    const steps = form.fields.find((f) => f.name === 'steps')!
    assert.deepEqual(
      steps.itemFields!.map((f) => f.name),
      ['name', 'weight', 'outputVariableId']
    )
    assert.equal(steps.itemFields![0].i18nKey, 'fields.steps.fields.name')
    assert.equal(steps.itemLabel, 'step')
    const labels = form.fields.find((f) => f.name === 'labels')!
    assert.deepEqual(
      labels.fields!.map((f) => f.name),
      ['title', 'caption']
    )
    assert.deepInclude(
      form.fields.find((f) => f.name === 'model')!,
      { optionsFrom: { fetcher: 'models', dependsOn: ['credentialsId'], pluginId: 'qr-code' } }
    )
    assert.deepInclude(form.credentials![0], { name: 'apiKey', secret: true, required: true })
    // Labels default to the humanised key.
    assert.equal(
      formOf(definePlugin({ ...qrCode, options: { saveUrlInVariableId: field.variable() } }))
        .fields[0].label,
      'Save url in variable'
    )
  })

  test('the locale holds every label the form points at', ({ assert }) => {
    const locale = localeOf(qrCode) as any
    assert.equal(locale.name, 'QR code')
    assert.equal(locale.fields.steps.fields.name.label, 'Step name')
    assert.equal(locale.fields.format.options.svg, 'SVG image')
    assert.equal(locale.credentials.apiKey.label, 'API key')
  })

  test('written variables: variable fields that write, response mappings, list items', ({
    assert,
  }) => {
    const written = writtenVariablesOf(qrCode, {
      saveUrlInVariableId: 'v1',
      readFromVariableId: 'v-read',
      steps: [{ outputVariableId: 'v2' }, { outputVariableId: '' }, { outputVariableId: 'v1' }],
      responseMapping: [{ item: 'Message content', variableId: 'v3' }, { item: 'Total tokens' }],
    })
    assert.deepEqual(written, ['v1', 'v2', 'v3'])
    assert.deepEqual(writtenVariablesOf(qrCode, undefined), [])
  })

  test('written variables skip fields hidden by showIf', ({ assert }) => {
    const setVariable = definePlugin({
      id: 'sv',
      name: 'SV',
      fullName: 'SV',
      tags: [],
      category: 'logic',
      scope: 'user',
      version: 1,
      serves: ['bot'],
      options: {
        type: field.enum({ options: ['Custom', 'Pop'] }),
        saveItemInVariableId: field.variable({
          writes: true,
          showIf: { field: 'type', in: ['Pop'] },
        }),
      },
    })
    assert.deepEqual(
      writtenVariablesOf(setVariable, { type: 'Custom', saveItemInVariableId: 'v' }),
      []
    )
    assert.deepEqual(writtenVariablesOf(setVariable, { type: 'Pop', saveItemInVariableId: 'v' }), [
      'v',
    ])
  })

  test('key/value lists skip entries with an empty key or value', ({ assert }) => {
    const entries = [
      { id: '1', key: 'Authorization', value: 'Bearer x' },
      { id: '2', key: '', value: 'orphan' },
      { id: '3', key: 'Empty' },
      { id: '4', key: ' Accept ', value: 'application/json' },
      { id: '5', key: 'Authorization', value: 'Bearer y' },
    ]
    assert.deepEqual(cleanKeyValue(entries), [
      { key: 'Authorization', value: 'Bearer x' },
      { key: 'Accept', value: 'application/json' },
      { key: 'Authorization', value: 'Bearer y' },
    ])
    assert.deepEqual(keyValueToRecord(entries), {
      Authorization: 'Bearer y',
      Accept: 'application/json',
    })
    assert.deepEqual(cleanKeyValue(undefined), [])
  })

  test('showIf predicates are data and evaluate against siblings or the root', ({ assert }) => {
    const conditions = [
      { field: 'a', equals: 1 },
      { field: 'a', in: [1, 2] },
      { field: 'b', notEmpty: true },
      { all: [{ field: 'a', notEquals: 3 }, { any: [{ field: 'c', isEmpty: true }] }] },
    ] as const
    assert.deepEqual(JSON.parse(JSON.stringify(conditions)), conditions)
    for (const condition of conditions) assert.isTrue(isShown(condition, { a: 1, b: ['x'] }))
    assert.isFalse(isShown({ field: 'b', notEmpty: true }, { b: [] }))
    assert.isFalse(isShown({ field: 'a', notIn: [1] }, { a: 1 }))
    assert.isTrue(isShown({ field: '$.top', equals: true }, { a: 1 }, { top: true }))
    assert.isTrue(isShown(undefined, {}))
  })

  test('code and variable fields are reported so substitution leaves them alone', ({ assert }) => {
    assert.sameMembers(
      [...unsubstitutedKeysOf(qrCode)],
      ['script', 'config', 'saveUrlInVariableId', 'readFromVariableId', 'outputVariableId']
    )
    // Listed once per declaration: every block run asks.
    assert.strictEqual(unsubstitutedKeysOf(qrCode), unsubstitutedKeysOf(qrCode))
  })

  test('slugs, and runner failures become error logs', async ({ assert }) => {
    assert.equal(slugOf('Set variable'), 'set-variable')
    assert.equal(slugOf('AB test'), 'ab-test')
    assert.equal(slugOf('Make.com'), 'make-com')
    assert.deepEqual(errorToLog(new Error('Boom')), {
      status: 'error',
      description: 'Boom',
      details: { name: 'Error', message: 'Boom' },
    })
    assert.deepEqual(errorToLog('plain'), {
      status: 'error',
      description: 'plain',
      details: 'plain',
    })
    const { error } = await runSafely(async () => {
      throw new Error('API key missing')
    }, {})
    assert.equal(error?.description, 'API key missing')
    const ok = await runSafely(() => ({ outgoingEdgeId: 'e1' }), {})
    assert.deepEqual(ok, { result: { outgoingEdgeId: 'e1' } })
  })
})

test.group('Runner typing', () => {
  test('a runner infers its options and credentials from the declaration', async ({ assert }) => {
    const logs: string[] = []
    // Compile-time check as much as a run: options.format is 'png' | 'svg', credentials.apiKey a string.
    const run: Runner<typeof qrCode> = async ({ options, credentials, variables, logger }) => {
      const format: 'png' | 'svg' | undefined = options.format
      const key: string | undefined = credentials.apiKey
      if (!options.data) return logger.error('QR code data is empty.')
      variables.set(options.saveUrlInVariableId, `${format}:${key}:${options.data}`)
    }
    const set: [string | undefined, unknown][] = []
    await run({
      surface: 'bot',
      options: { data: 'hi', format: 'svg', saveUrlInVariableId: 'v1' },
      credentials: { apiKey: 'k' },
      variables: {
        get: () => undefined,
        set: (id, value) => set.push([id, value]),
        list: () => [],
      },
      logger: { success() {}, info() {}, error: (description) => logs.push(description) },
      http: { request: () => Promise.reject(new Error('no network')) },
      ai: memoryAi(),
      storage: { put: async () => '/storage/x.png', read: async () => null },
      signal: new AbortController().signal,
    })
    assert.deepEqual(set, [['v1', 'svg:k:hi']])
  })
})
