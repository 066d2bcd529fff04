import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import env from '#start/env'
import limiter from '@adonisjs/limiter/services/main'
import { signInLimitKeys } from '#controllers/auth/sign_in_controller'
import DevMail from '#models/dev_mail'
import { trustedProxies } from '#services/trusted_proxies'
import { uniqueEmail } from '#tests/helpers'
import type { ApiClient } from '@japa/api-client'

/**
 * Sign-in links are limited per e-mail address and per client address, separately
 * (docs/security.md, "Request limits"); the client address comes from X-Forwarded-For only
 * when the peer is in TRUSTED_PROXIES. Once, one limit keyed on both let one client mail
 * 30 addresses, and a forged X-Forwarded-For mail one address without end.
 */
const mailsTo = async (email: string) => (await DevMail.query().where('to', email)).length

function askLink(client: ApiClient, email: string, forwardedFor?: string) {
  const request = client.post('/signin').form({ email }).withCsrfToken().redirects(0)
  if (forwardedFor) request.header('x-forwarded-for', forwardedFor)
  return request
}

/** Sets the per-client limit and forgets what earlier tests spent from this client. */
async function clientLimit(requests: number) {
  env.set('SIGNIN_IP_RATE_LIMIT', requests)
  const ipLimiter = limiter.use({ requests, duration: '15 mins' })
  for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '::1']) {
    await ipLimiter.delete(signInLimitKeys(ip, '').ip)
  }
}

test.group('Sign-in limits', (group) => {
  group.each.setup(() => {
    const saved = env.get('SIGNIN_IP_RATE_LIMIT')
    return () => env.set('SIGNIN_IP_RATE_LIMIT', saved)
  })

  test('one client cannot mail many addresses, even with forged X-Forwarded-For', async ({
    client,
    assert,
  }) => {
    await clientLimit(5)
    const emails = Array.from({ length: 8 }, () => uniqueEmail('spray'))
    const statuses = []
    for (const [i, email] of emails.entries()) {
      statuses.push((await askLink(client, email, `203.0.113.${i}`)).status())
    }
    const sent = (await Promise.all(emails.map(mailsTo))).filter((n) => n > 0).length
    assert.equal(sent, 5)
    assert.deepEqual(statuses.slice(0, 5), [302, 302, 302, 302, 302])
    const refused = await askLink(client, uniqueEmail('spray'))
    refused.assertFlashMessage('toast', {
      type: 'error',
      title: 'Too many requests. Try again later',
    })
  })

  test('one address cannot be mailed without end from many client addresses', async ({
    client,
    assert,
  }) => {
    const http = app.config.get<{ trustProxy: unknown }>('app.http')
    const saved = http.trustProxy
    // Even through a trusted proxy, where each request has its own client address.
    http.trustProxy = trustedProxies('loopback')
    try {
      const email = uniqueEmail('target')
      for (let i = 0; i < 14; i++) await askLink(client, email, `198.51.100.${i}`)
      assert.equal(await mailsTo(email), 10)
    } finally {
      http.trustProxy = saved
    }
  })

  test('through a trusted proxy, each client has its own budget', async ({ client, assert }) => {
    await clientLimit(2)
    const http = app.config.get<{ trustProxy: unknown }>('app.http')
    const saved = http.trustProxy
    http.trustProxy = trustedProxies('loopback')
    try {
      const emails = Array.from({ length: 4 }, () => uniqueEmail('behind-proxy'))
      for (const [i, email] of emails.entries()) {
        await askLink(client, email, `192.0.2.${i}`)
      }
      assert.lengthOf(
        (await Promise.all(emails.map(mailsTo))).filter((n) => n > 0),
        4
      )
    } finally {
      http.trustProxy = saved
    }
  })
})
