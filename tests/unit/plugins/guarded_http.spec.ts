import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  BlockedRequestError,
  RequestTimeoutError,
  assertAllowedUrl,
  createGuardedHttp,
  isInternalAddress,
  parseHostList,
} from '#plugins/guarded_http'
import { urlProblem } from '#plugins/derive'

/** A loopback stand-in: /ok, /redirect -> /ok, /loop -> /loop, /slow never answers in time. */
function startServer(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/ok') return response.end(JSON.stringify({ method: request.method }))
    if (request.url === '/redirect') {
      response.writeHead(302, { location: '/ok' })
      return response.end()
    }
    if (request.url === '/loop') {
      response.writeHead(307, { location: '/loop' })
      return response.end()
    }
    if (request.url === '/slow') {
      setTimeout(() => response.end('late'), 1000)
      return
    }
    response.writeHead(404).end()
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

const publicLookup = async (hostname: string) => {
  if (hostname === 'public.test') return [{ address: '93.184.216.34', family: 4 }]
  if (hostname === 'mixed.test') {
    return [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]
  }
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
}

test.group('Guarded HTTP: addresses', () => {
  test('classifies internal and public addresses', ({ assert }) => {
    const internal = [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.255',
      '0.0.0.0',
      '0.1.2.3',
      '224.0.0.1',
      '239.255.255.250',
      '255.255.255.255',
      '::',
      '::1',
      '[::1]',
      'fd00::1',
      'fc00::1',
      'fe80::1%eth0',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      '2002:0a00:0001::1',
      'not an ip',
    ]
    for (const address of internal) assert.isTrue(isInternalAddress(address), address)
    const publicOnes = [
      '8.8.8.8',
      '93.184.216.34',
      '172.32.0.1',
      '100.128.0.1',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
    ]
    for (const address of publicOnes) assert.isFalse(isInternalAddress(address), address)
  })

  test('refuses loopback, private, link-local and IPv6 loopback URLs', async ({ assert }) => {
    for (const url of [
      'http://127.0.0.1/',
      'http://10.0.0.5:8080/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:3333/',
      'http://[::ffff:127.0.0.1]/',
      'http://0x7f000001/',
      'http://localhost:3333/',
    ]) {
      await assert.rejects(
        () => assertAllowedUrl(url),
        /internal network addresses are not allowed/
      )
    }
  })

  test('refuses other schemes and invalid URLs', async ({ assert }) => {
    await assert.rejects(
      () => assertAllowedUrl('file:///etc/passwd', { allowInternal: true }),
      /Only http and https URLs are allowed \(got file\)/
    )
    await assert.rejects(() => assertAllowedUrl('ftp://example.com/'), /Only http and https/)
    await assert.rejects(() => assertAllowedUrl('not a url'), /Invalid URL/)
  })

  test('checks every address a host resolves to', async ({ assert }) => {
    const url = await assertAllowedUrl('https://public.test/path', { lookup: publicLookup })
    assert.equal(url.hostname, 'public.test')
    await assert.rejects(
      () => assertAllowedUrl('https://mixed.test/', { lookup: publicLookup }),
      /resolves to 10\.1\.2\.3/
    )
    await assert.rejects(
      () => assertAllowedUrl('https://nowhere.test/', { lookup: publicLookup }),
      /Could not resolve the host nowhere\.test/
    )
  })
})

test.group('Guarded HTTP: hosts an operator lists', () => {
  test('reads host, host:port and bracketed IPv6 entries, and refuses anything else', ({
    assert,
  }) => {
    assert.deepEqual(parseHostList(' Ollama.lan:11434, 10.0.0.5 [fd00::1]:8000 '), [
      { host: 'ollama.lan', port: 11434 },
      { host: '10.0.0.5', port: null },
      { host: 'fd00::1', port: 8000 },
    ])
    assert.deepEqual(parseHostList(undefined), [])
    assert.throws(() => parseHostList('http://ollama.lan'), /not a host or host:port/)
    assert.throws(() => parseHostList('ollama.lan:99999'), /not a host or host:port/)
  })

  test('a listed host (and port) passes; its neighbours and other ports stay refused', async ({
    assert,
  }) => {
    const allowedInternalHosts = parseHostList('10.0.0.5:11434, ollama.lan')
    const lookup = async () => [{ address: '192.168.1.20', family: 4 }]
    const options = { allowedInternalHosts, lookup }
    assert.equal((await assertAllowedUrl('http://10.0.0.5:11434/v1', options)).port, '11434')
    await assert.rejects(() => assertAllowedUrl('http://10.0.0.5:6379/', options), /10\.0\.0\.5/)
    await assert.rejects(() => assertAllowedUrl('http://10.0.0.6:11434/', options), /10\.0\.0\.6/)
    // A name is matched as written, whatever it resolves to; any port when none is listed.
    assert.equal((await assertAllowedUrl('https://OLLAMA.lan/v1', options)).hostname, 'ollama.lan')
    await assert.rejects(
      () => assertAllowedUrl('http://other.lan/', options),
      /CREDENTIAL_INTERNAL_HOSTS/
    )
  })

  test('a base URL field holds one absolute http(s) URL', ({ assert }) => {
    assert.isNull(urlProblem('https://api.openai.com/v1'))
    assert.isNull(urlProblem('http://localhost:8098/v1'))
    assert.match(urlProblem('https://api.openai.com/v1http://localhost:8098/v1')!, /one URL only/)
    assert.match(urlProblem('localhost:8098/v1')!, /http/)
    assert.match(urlProblem('api.openai.com/v1')!, /full URL/)
    assert.match(urlProblem('ftp://example.com')!, /http/)
    assert.match(urlProblem('https://a.com/v1 https://b.com')!, /one URL only/)
  })
})

test.group('Guarded HTTP: client', (group) => {
  let server: Server
  let base: string
  group.setup(async () => {
    server = await startServer()
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => server.close(() => resolve()))
  })

  test('refuses the loopback stand-in by default', async ({ assert }) => {
    await assert.rejects(() => createGuardedHttp().request(`${base}/ok`), BlockedRequestError)
  })

  test('reaches it when allowInternal is set, following redirects', async ({ assert }) => {
    const http = createGuardedHttp({ allowInternal: true })
    const direct = await http.request(`${base}/ok`)
    assert.deepEqual(await direct.json(), { method: 'GET' })
    const redirected = await http.request(`${base}/redirect`, { method: 'POST', body: 'x' })
    assert.equal(redirected.status, 200)
    // 302 after POST continues as GET, like browsers do.
    assert.deepEqual(await redirected.json(), { method: 'GET' })
  })

  test('sends its idempotency key on requests that may change something', async ({ assert }) => {
    const seen: (string | null)[] = []
    const fakeFetch = (async (_url: URL, init: RequestInit) => {
      seen.push(new Headers(init.headers as Record<string, string>).get('idempotency-key'))
      return new Response('ok')
    }) as unknown as typeof fetch
    const http = createGuardedHttp({ allowInternal: true, fetch: fakeFetch, idempotencyKey: 'k1' })
    await http.request(`${base}/ok`, { method: 'POST', body: 'a' })
    await http.request(`${base}/ok`)
    await http.request(`${base}/ok`, { method: 'PUT', body: 'b' })
    await http.request(`${base}/ok`, { method: 'DELETE', headers: { 'Idempotency-Key': 'own' } })
    await http.request(`${base}/ok`, { method: 'PATCH', body: 'c' })
    // The n-th request of a node's attempt: the same keys on every attempt of the node.
    assert.deepEqual(seen, ['k1', null, 'k1-2', 'own', 'k1-3'])

    const unkeyed: (string | null)[] = []
    const plain = createGuardedHttp({
      allowInternal: true,
      fetch: (async (_url: URL, init: RequestInit) => {
        unkeyed.push(new Headers(init.headers as Record<string, string>).get('idempotency-key'))
        return new Response('ok')
      }) as unknown as typeof fetch,
    })
    await plain.request(`${base}/ok`, { method: 'POST', body: 'a' })
    assert.deepEqual(unkeyed, [null])
  })

  test('stops after 5 redirects', async ({ assert }) => {
    const http = createGuardedHttp({ allowInternal: true })
    await assert.rejects(() => http.request(`${base}/loop`), /Too many redirects \(more than 5\)/)
  })

  test('times out', async ({ assert }) => {
    const http = createGuardedHttp({ allowInternal: true, timeoutMs: 100 })
    await assert.rejects(() => http.request(`${base}/slow`), RequestTimeoutError)
    await assert.rejects(() => http.request(`${base}/slow`), /timed out after 100 ms/)
  })

  test('re-checks each redirect hop and drops credentials across origins', async ({ assert }) => {
    const calls: { url: string; method: string; headers: Record<string, string>; body: unknown }[] =
      []
    const fakeFetch = (async (url: URL, init: RequestInit) => {
      calls.push({
        url: url.href,
        method: init.method!,
        headers: { ...(init.headers as any) },
        body: init.body,
      })
      if (url.pathname === '/to-internal')
        return new Response(null, { status: 302, headers: { location: 'http://127.0.0.1/' } })
      if (url.pathname === '/see-other')
        return new Response(null, { status: 303, headers: { location: 'https://other.test/done' } })
      return new Response('done')
    }) as unknown as typeof fetch
    const lookup = async () => [{ address: '93.184.216.34', family: 4 }]
    const http = createGuardedHttp({ fetch: fakeFetch, lookup })

    await assert.rejects(
      () => http.request('https://public.test/to-internal'),
      /internal network addresses are not allowed/
    )

    calls.length = 0
    const response = await http.request('https://public.test/see-other', {
      method: 'POST',
      body: '{"a":1}',
      headers: {
        'Authorization': 'Bearer secret',
        'Content-Type': 'application/json',
        'X-Keep': '1',
      },
    })
    assert.equal(await response.text(), 'done')
    assert.deepEqual(calls[1], {
      url: 'https://other.test/done',
      method: 'GET',
      headers: { 'X-Keep': '1' },
      body: undefined,
    })
  })
})
