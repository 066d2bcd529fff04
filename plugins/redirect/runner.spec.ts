import { test } from '@japa/runner'
import { run } from './runner.js'
import { botContext, runBlock } from '#sdk/testing'

test.group('Redirect runner', () => {
  test('sends web addresses, adding https:// to a bare domain', async ({ assert }) => {
    const result = await runBlock(run, { options: { url: 'example.com/next', isNewTab: true } })
    assert.deepEqual(result.clientSideActions, [
      { type: 'redirect', redirect: { url: 'https://example.com/next', isNewTab: true } },
    ])
    const mail = await runBlock(run, { options: { url: 'mailto:a@b.co' } })
    assert.equal((mail.clientSideActions![0] as any).redirect.url, 'mailto:a@b.co')
  })

  test('refuses javascript:, data: and vbscript: however they are written', async ({ assert }) => {
    for (const url of [
      'javascript:alert(document.cookie)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'jav\nascript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'DATA:text/html;base64,PHNjcmlwdD4=',
      'vbscript:msgbox(1)',
    ]) {
      const context = botContext({ options: { url } })
      const result = (await run(context as any)) as { clientSideActions?: unknown }
      assert.isUndefined(result.clientSideActions, url)
      assert.equal(context.logs[0]?.status, 'error', url)
      assert.match(context.logs[0]?.description ?? '', /URLs are not allowed/, url)
    }
  })
})
