import { test } from '@japa/runner'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { runPluginTest, startStandIn } from '#sdk/testing'

const folder = new URL('./', import.meta.url)

/**
 * A real SMTP server (nodemailer's smtp-server) standing for the workspace's mail server:
 * plain SMTP with AUTH PLAIN/LOGIN, every message kept and parsed.
 */
async function smtpStandIn(user = 'mailer', pass = 'secret') {
  const received: { envelope: { from: string; to: string[] }; mail: ParsedMail }[] = []
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: false,
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === pass) return callback(null, { user })
      callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            envelope: {
              from: String((session.envelope.mailFrom || { address: '' }).address),
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            mail,
          })
          callback()
        })
        .catch(callback)
    },
  })
  server.listen(0, '127.0.0.1')
  await once(server.server, 'listening')
  const { port } = server.server.address() as AddressInfo
  return { port, received, close: () => new Promise<void>((resolve) => server.close(resolve)) }
}

test.group('Plugin send-email', () => {
  test("a bot's E-mail block sends through the workspace's SMTP account, with attachments", async ({
    assert,
    cleanup,
  }) => {
    const smtp = await smtpStandIn()
    cleanup(() => smtp.close())
    const files = await startStandIn(({ res }) => {
      res.writeHead(200, { 'content-type': 'application/pdf' })
      res.end('%PDF-1.4 invoice')
    })
    cleanup(() => files.close())
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      credentials: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        username: 'mailer',
        password: 'secret',
        fromEmail: 'orders@example.com',
        fromName: 'Acme orders',
      },
      options: {
        credentialsId: 'smtp-1',
        to: '{{Email}}',
        cc: 'boss@example.com',
        bcc: 'archive@example.com',
        replyTo: 'support@example.com',
        subject: 'Your order {{Order}}',
        bodyType: 'html',
        body: '<p>Hello <b>{{Name}}</b></p>',
        attachmentsVariableId: 'v-files',
      },
      variables: [
        { id: 'v-email', name: 'Email', value: 'ada@example.com' },
        { id: 'v-order', name: 'Order', value: 'A-42' },
        { id: 'v-name', name: 'Name', value: 'Ada' },
        { id: 'v-files', name: 'Files', value: [`${files.baseUrl}/docs/invoice-A-42.pdf`] },
      ],
    })
    assert.deepEqual(run.errors, [])
    assert.lengthOf(smtp.received, 1)
    const [{ envelope, mail }] = smtp.received
    assert.equal(envelope.from, 'orders@example.com')
    assert.sameMembers(envelope.to, ['ada@example.com', 'boss@example.com', 'archive@example.com'])
    assert.equal(mail.subject, 'Your order A-42')
    assert.equal(mail.from?.value[0].name, 'Acme orders')
    assert.equal(mail.replyTo?.value[0].address, 'support@example.com')
    assert.include(String(mail.html), '<b>Ada</b>')
    assert.equal(mail.text?.trim(), 'Hello Ada')
    assert.isUndefined(mail.bcc, 'bcc is not written in the headers')
    assert.deepEqual(
      mail.attachments.map((file) => [file.filename, file.content.toString()]),
      [['invoice-A-42.pdf', '%PDF-1.4 invoice']]
    )
    assert.deepInclude(run.output as object, {
      transport: 'workspace-smtp',
      attachments: ['invoice-A-42.pdf'],
    })
  })

  test('a file the app stored is attached from storage, not fetched', async ({
    assert,
    cleanup,
  }) => {
    const smtp = await smtpStandIn()
    cleanup(() => smtp.close())
    // A QR code node stored this file just before in the same workflow.
    const stored = await runPluginTest({
      folder: new URL('../qr-code/', import.meta.url),
      surface: 'workflow',
      options: { data: 'A-42' },
    })
    const url = (stored.output as { url: string }).url
    const run = await runPluginTest({
      folder,
      surface: 'workflow',
      credentials: {
        host: '127.0.0.1',
        port: smtp.port,
        username: 'mailer',
        password: 'secret',
        fromEmail: 'orders@example.com',
      },
      options: {
        to: 'ada@example.com',
        subject: 'Your code',
        body: 'Attached',
        attachmentsVariableId: 'v',
      },
      variables: [{ id: 'v', name: 'Files', value: url }],
    })
    assert.deepEqual(run.errors, [])
    const [attachment] = smtp.received[0].mail.attachments
    assert.match(attachment.filename ?? '', /\.png$/)
    assert.deepEqual([...attachment.content.subarray(1, 4)], [...Buffer.from('PNG')])
  })

  test('a refused login fails a workflow node with the server reason; a bad From is named', async ({
    assert,
    cleanup,
  }) => {
    const smtp = await smtpStandIn()
    cleanup(() => smtp.close())
    const base = {
      folder,
      surface: 'workflow' as const,
      options: { to: 'ada@example.com', subject: 'Hi', body: 'x' },
    }
    const refused = await runPluginTest({
      ...base,
      credentials: {
        host: '127.0.0.1',
        port: smtp.port,
        username: 'mailer',
        password: 'wrong',
        fromEmail: 'orders@example.com',
      },
    })
    assert.lengthOf(refused.errors, 1)
    assert.match(refused.errors[0], /Invalid username or password|auth/i)
    const badFrom = await runPluginTest({
      ...base,
      credentials: { host: '127.0.0.1', port: smtp.port, fromEmail: 'nobody' },
    })
    assert.deepEqual(badFrom.errors, [
      `Send e-mail: the SMTP account's From e-mail "nobody" is not valid`,
    ])
    assert.lengthOf(smtp.received, 0)
  })
})
