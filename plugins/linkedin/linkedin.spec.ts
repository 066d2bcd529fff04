import { test } from '@japa/runner'
import { forgetOAuthTokens } from '#sdk/oauth'
import { runPluginTest } from '#sdk/testing'
import { startLinkedInStandIn } from './stand_in.js'

/** The LinkedIn node against a stand-in of LinkedIn's OAuth and Posts APIs. */
const folder = new URL('./', import.meta.url)

const account = {
  memberId: 'x7Fq2LmN',
  name: 'Ada Lovelace',
  validTokens: ['AQ-valid'],
  refreshToken: 'AQ-refresh',
  clientId: 'client-1',
  clientSecret: 'secret-1',
}

async function linkedIn() {
  forgetOAuthTokens()
  const service = await startLinkedInStandIn(account)
  const credentials = {
    accessToken: 'AQ-valid',
    refreshToken: account.refreshToken,
    clientId: account.clientId,
    clientSecret: account.clientSecret,
    baseUrl: service.baseUrl,
    tokenUrl: `${service.baseUrl}/oauth/v2/accessToken`,
    apiVersion: '202501',
  }
  return { service, credentials }
}

const share = (credentials: Record<string, unknown>, options: Record<string, unknown>) =>
  runPluginTest({ folder, surface: 'workflow', action: 'Share a post', credentials, options })

test.group('Plugin linkedin', () => {
  test('shares a public post as the member, with the versioned API headers', async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await linkedIn()
    cleanup(() => service.close())
    const run = await share(credentials, {
      text: 'We ship on {{Day}}!',
      visibility: 'public',
      articleUrl: 'https://example.com/launch',
      articleTitle: 'Launch notes',
    })
    assert.deepEqual(run.errors, [])
    assert.lengthOf(service.posts, 1)
    const [post] = service.posts
    assert.equal(post.headers['authorization'], 'Bearer AQ-valid')
    assert.equal(post.headers['linkedin-version'], '202501')
    assert.equal(post.headers['x-restli-protocol-version'], '2.0.0')
    assert.deepEqual(post.body, {
      author: 'urn:li:person:x7Fq2LmN',
      commentary: 'We ship on !',
      visibility: 'PUBLIC',
      distribution: {
        feedDistribution: 'MAIN_FEED',
        targetEntities: [],
        thirdPartyDistributionChannels: [],
      },
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      content: { article: { source: 'https://example.com/launch', title: 'Launch notes' } },
    })
    assert.deepEqual(run.output, {
      postUrn: post.urn,
      url: `https://www.linkedin.com/feed/update/${post.urn}/`,
      author: 'urn:li:person:x7Fq2LmN',
      visibility: 'public',
    })
  })

  test('an expired token is renewed with the refresh token, then the post goes out to connections', async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await linkedIn()
    cleanup(() => service.close())
    service.revoke('AQ-valid')
    const run = await share(credentials, { text: 'Hello', visibility: 'connections' })
    assert.deepEqual(run.errors, [])
    const [post] = service.posts
    assert.equal(post.body.visibility, 'CONNECTIONS')
    assert.match(String(post.headers['authorization']), /^Bearer AQ[0-9a-f]{24}$/)

    // Without a usable refresh token LinkedIn's refusal fails the node.
    forgetOAuthTokens()
    const failed = await share(
      { ...credentials, refreshToken: 'revoked' },
      { text: 'Hello', visibility: 'public' }
    ).catch((error: Error) => error)
    const message = failed instanceof Error ? failed.message : failed.errors.join()
    assert.include(
      message,
      'LinkedIn refused the token refresh: The provided authorization grant is invalid'
    )
  })

  test('posting as an organization needs its permission; the credential test names the member', async ({
    assert,
    cleanup,
  }) => {
    const { service, credentials } = await linkedIn()
    cleanup(() => service.close())
    const refused = await share(credentials, {
      text: 'Hi',
      visibility: 'public',
      author: 'urn:li:organization:42',
    }).catch((error: Error) => error)
    const message = refused instanceof Error ? refused.message : refused.errors.join()
    assert.include(message, 'LinkedIn refused the request (403): Not enough permissions')

    const { test: check } = await import('./credentials.js')
    const http = { request: (url: string | URL, init?: RequestInit) => fetch(url, init) }
    assert.deepEqual(await check({ credentials, http } as any), {
      ok: true,
      message: 'Connected as Ada Lovelace.',
    })
  })
})
