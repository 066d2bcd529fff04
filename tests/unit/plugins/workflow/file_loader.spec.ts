import { test } from '@japa/runner'
import { appUrl } from '#config/app'
import { privateKey, putFile } from '#services/storage'
import { runPluginTest, startStandIn } from '#sdk/testing'
import { docxOf, pdfOf } from '#tests/documents'

/**
 * The File loader node: documents from a URL (a stand-in file server) and from the app's
 * storage (a private upload of the workspace), their text, pages and rows as the output,
 * and the reasons a file cannot be read.
 */

const folder = new URL('../../../../plugins/file-loader/', import.meta.url)

async function fileServer() {
  return startStandIn(({ res, url }) => {
    const send = (
      status: number,
      type: string,
      body: Buffer | string,
      extra: Record<string, string> = {}
    ) => {
      res.writeHead(status, { 'content-type': type, ...extra })
      res.end(body)
    }
    if (url.pathname === '/guide.pdf')
      return send(200, 'application/pdf', pdfOf([['Page one'], ['Page two']]))
    if (url.pathname === '/download')
      return send(200, 'application/octet-stream', docxOf(['From Word']), {
        'content-disposition': 'attachment; filename="Policy.docx"',
      })
    if (url.pathname === '/menu')
      return send(200, 'text/csv; charset=utf-8', 'dish,price\nSoup,4\n')
    if (url.pathname === '/page') return send(200, 'text/plain', '<p>Hello <b>there</b></p>')
    if (url.pathname === '/broken.pdf') return send(200, 'application/pdf', '%PDF-1.4 garbage')
    if (url.pathname === '/big') {
      // No content-length: the cap must hold while the body streams in.
      res.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' })
      const chunk = Buffer.alloc(256 * 1024, 97)
      for (let index = 0; index < 12; index++) res.write(chunk)
      return res.end()
    }
    return send(404, 'text/plain', 'Not found')
  })
}

test.group('File loader node', (group) => {
  let server: Awaited<ReturnType<typeof fileServer>>
  group.each.setup(async () => {
    server = await fileServer()
    return () => server.close()
  })

  test('a PDF from a URL: its text and its pages', async ({ assert }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${server.baseUrl}/guide.pdf` },
    })
    assert.deepEqual(outcome.errors, [])
    const output = outcome.output as any
    assert.equal(output.text, 'Page one\n\nPage two')
    assert.deepEqual(output.pages, ['Page one', 'Page two'])
    assert.equal(output.fileName, 'guide.pdf')
    assert.isAbove(output.size, 100)
    assert.equal(server.requests[0].method, 'GET')
    assert.equal(server.requests[0].path, '/guide.pdf')
  })

  test('the name comes from Content-Disposition; a CSV gives rows; {{variables}} fill the URL', async ({
    assert,
  }) => {
    const word = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${server.baseUrl}/download` },
    })
    assert.equal((word.output as any).text, 'From Word')
    assert.equal((word.output as any).fileName, 'Policy.docx')

    const csv = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: '{{Menu}}' },
      variables: [{ id: 'v1', name: 'Menu', value: `${server.baseUrl}/menu` }],
    })
    assert.deepEqual((csv.output as any).rows, [{ dish: 'Soup', price: '4' }])
    assert.equal((csv.output as any).text, 'dish: Soup, price: 4')
  })

  test('a chosen format wins over what the server says', async ({ assert }) => {
    const html = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${server.baseUrl}/page`, format: 'html' },
    })
    assert.equal((html.output as any).text, 'Hello there')
    const asText = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${server.baseUrl}/page` },
    })
    assert.equal((asText.output as any).text, '<p>Hello <b>there</b></p>')
  })

  test("a private stored file of the workspace is read from storage, another workspace's is refused", async ({
    assert,
  }) => {
    const path = await putFile(
      privateKey('test-workspace', 'files', 'notes.md'),
      Buffer.from('# Notes\n\nKeep calm'),
      {
        contentType: 'text/markdown',
      }
    )
    const outcome = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${appUrl}${path}` },
    })
    assert.deepEqual(outcome.errors, [])
    assert.equal((outcome.output as any).text, '# Notes\n\nKeep calm')
    assert.equal((outcome.output as any).fileName, 'notes.md')

    const other = await putFile(
      privateKey('other-workspace', 'files', 'secret.txt'),
      Buffer.from('secret')
    )
    const refused = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `${appUrl}${other}` },
    })
    assert.deepEqual(refused.errors, ['This file belongs to another workspace'])
    assert.lengthOf(server.requests, 0)
  })

  test('a file sent inline as a data URL (an upload a webhook caller passes)', async ({
    assert,
  }) => {
    const pdf = pdfOf([['Inline upload']]).toString('base64')
    const outcome = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: '{{Upload}}' },
      variables: [
        {
          id: 'v-upload',
          name: 'Upload',
          value: `data:application/pdf;name=scan%201.pdf;base64,${pdf}`,
        },
      ],
    })
    assert.deepEqual(outcome.errors, [])
    assert.equal((outcome.output as any).text, 'Inline upload')
    assert.equal((outcome.output as any).fileName, 'scan 1.pdf')

    const plain = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: 'data:text/csv,a%2Cb%0A1%2C2' },
    })
    assert.deepEqual((plain.output as any).rows, [{ a: '1', b: '2' }])

    const big = Buffer.alloc(3 * 1024 * 1024, 97).toString('base64')
    const refused = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { url: `data:text/plain;base64,${big}`, maxSizeMb: 2 },
    })
    assert.deepEqual(refused.errors, ['File loader: the file is larger than 2 MB'])
    assert.lengthOf(server.requests, 0)
  })

  test('failures fail the node with the reason', async ({ assert }) => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { url: `${server.baseUrl}/missing.pdf` },
        `File loader: 127.0.0.1:${server.port} answered 404 Not Found`,
      ],
      [{ url: `${server.baseUrl}/broken.pdf` }, 'File loader: The PDF is damaged or not a PDF'],
      [{ url: `${server.baseUrl}/big`, maxSizeMb: 2 }, 'File loader: the file is larger than 2 MB'],
      [{ url: 'not a url' }, 'File loader: "not a url" is not a URL'],
      [{ url: 'ftp://example.com/a.pdf' }, 'Only http and https URLs are allowed'],
    ]
    for (const [options, message] of cases) {
      const outcome = await runPluginTest({ folder, surface: 'workflow', options })
      assert.isUndefined(outcome.output, message)
      assert.include(outcome.errors[0] ?? '', message)
    }
  })
})
