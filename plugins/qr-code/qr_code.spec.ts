import { test } from '@japa/runner'
import decodeQr from 'jsqr'
import { PNG } from 'pngjs'
import { runPluginTest, storedFile } from '#sdk/testing'
import { QR_TEXTS } from './runner.js'

const folder = new URL('./', import.meta.url)

// jsqr is CommonJS: its default export is the function under NodeNext typing too.
const jsQR = decodeQr as unknown as (typeof decodeQr)['default']

test.group('Plugin qr-code', () => {
  test('a bot saves the URL of a PNG that decodes to the data', async ({ assert }) => {
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: { data: 'https://example.com/order/{{Order}}', saveUrlInVariableId: 'v-url' },
      variables: [
        { id: 'v-order', name: 'Order', value: 'A-42' },
        { id: 'v-url', name: 'QR', value: null },
      ],
    })
    assert.deepEqual(run.errors, [])
    const url = run.variablesSet.find((change) => change.id === 'v-url')?.value as string
    assert.match(url, /^https?:\/\/.+\/storage\/public\/test-workspace\/.+\.png$/)
    const png = await storedFile(url)
    const image = PNG.sync.read(png)
    assert.equal(image.width, 512)
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)
    assert.equal(decoded?.data, 'https://example.com/order/A-42')
    assert.equal((run.output as { data: string }).data, 'https://example.com/order/A-42')
  })

  test('a workflow node outputs the URL without a variable', async ({ assert }) => {
    const run = await runPluginTest({ folder, surface: 'workflow', options: { data: 'hello' } })
    assert.deepEqual(run.errors, [])
    assert.match((run.output as { url: string }).url, /\.png$/)
  })

  test('the messages: empty data, no variable in a bot, too long', async ({ assert }) => {
    const empty = await runPluginTest({
      folder,
      surface: 'bot',
      options: { data: '{{Nothing}}', saveUrlInVariableId: 'v-url' },
      variables: [
        { id: 'v-none', name: 'Nothing', value: null },
        { id: 'v-url', name: 'QR', value: null },
      ],
    })
    assert.deepEqual(empty.errors, [QR_TEXTS.noData])
    assert.deepEqual(empty.variablesSet, [])
    const noVariable = await runPluginTest({ folder, surface: 'bot', options: { data: 'x' } })
    assert.deepEqual(noVariable.errors, [QR_TEXTS.noVariable])
    const tooLong = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { data: 'x'.repeat(3000) },
    })
    assert.deepEqual(tooLong.errors, [QR_TEXTS.tooLong])
  })
})
