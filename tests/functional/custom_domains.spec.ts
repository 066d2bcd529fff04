import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { overrideViewerUrl } from '#services/public_surface'
import { overrideDnsServers, verificationRecord } from '#services/custom_domains'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { startDnsStandIn, type DnsStandIn } from '#tests/stand_ins/dns_server'

/**
 * Custom domains (docs/custom_domains.md): a bot is served at its domain only once the
 * workspace proved control of the host with a DNS TXT record; the app's own hosts can never
 * be claimed. Replays the takeover of issue 27: another tenant's bot, and the app's root,
 * replaced by a domain nobody proved.
 */

interface Tenant {
  token: string
  workspaceId: string
}

async function tenant(): Promise<Tenant> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `domains-${Date.now()}`)).value
  return { token, workspaceId: workspace.id }
}

function namedBot(name: string) {
  return {
    version: '6',
    name,
    groups: [
      {
        id: 'g1',
        title: 'Group #1',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [
          {
            id: 'b1',
            type: 'text',
            content: { richText: [{ type: 'p', children: [{ text: name }] }] },
          },
        ],
      },
    ],
    events: [{ id: 'ev', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'e1' }],
    edges: [{ id: 'e1', from: { eventId: 'ev' }, to: { groupId: 'g1' } }],
    variables: [],
    theme: {},
    settings: {
      metadata: { customHeadCode: `<script>window.owner=${JSON.stringify(name)}</script>` },
    },
  }
}

async function publishBot(client: ApiClient, owner: Tenant, name: string, patch = {}) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(owner.token)
    .json({ workspaceId: owner.workspaceId, bot: namedBot(name) })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  if (Object.keys(patch).length) {
    const patched = await client.patch(`/api/v1/bots/${id}`).bearerToken(owner.token).json(patch)
    patched.assertStatus(200)
  }
  ;(await client.post(`/api/v1/bots/${id}/publish`).bearerToken(owner.token)).assertStatus(200)
  return id
}

function claim(client: ApiClient, owner: Tenant, botId: string, customDomain: string | null) {
  return client.patch(`/api/v1/bots/${botId}`).bearerToken(owner.token).json({ customDomain })
}

function verify(client: ApiClient, owner: Tenant, botId: string) {
  return client.post(`/api/v1/bots/${botId}/custom-domain/verify`).bearerToken(owner.token)
}

test.group('Custom domains are served only once proven', (group) => {
  let dns: DnsStandIn
  let restoreDns: () => void
  let victim: Tenant
  let attacker: Tenant
  const suffix = `${process.env.PORT ?? '0'}${Date.now().toString(36)}`

  group.setup(async () => {
    dns = await startDnsStandIn()
    restoreDns = overrideDnsServers([dns.address])
    victim = await tenant()
    attacker = await tenant()
  })
  group.teardown(async () => {
    restoreDns()
    await dns.close()
  })

  test('a domain nobody proved serves nothing: the takeover of another tenant and of the root', async ({
    client,
    assert,
  }) => {
    const publicId = `triv-bot-${suffix}`
    await publishBot(client, victim, 'Victim bot', { publicId })
    const intruder = await publishBot(client, attacker, 'Attacker bot')
    const host = `flowcraft-${suffix}.example.localhost`

    // A path under a host that points at the server, with the victim's public id.
    const pending = await claim(client, attacker, intruder, `${host}/${publicId}`)
    pending.assertStatus(200)
    const shown = await client.get(`/${publicId}`).header('Host', host)
    shown.assertStatus(200)
    assert.include(shown.text(), 'Victim bot')
    assert.notInclude(shown.text(), 'Attacker bot')

    // The root of that host: no bot there, the usual redirect.
    ;(await claim(client, attacker, intruder, host)).assertStatus(200)
    const root = await client.get('/').header('Host', host).redirects(0)
    assert.notEqual(root.status(), 200)
    assert.notInclude(root.text(), 'Attacker bot')

    const status = await client
      .get(`/api/v1/bots/${intruder}/custom-domain`)
      .bearerToken(attacker.token)
    status.assertStatus(200)
    status.assertBodyContains({ domain: host, status: 'pending' })
    assert.equal(status.body().record.name, `_flowcraft-challenge.${host}`)
    assert.isNull((await Bot.findOrFail(intruder)).customDomainVerifiedAt)
  })

  test('the TXT record proves control: verified, then served; another workspace cannot share the host', async ({
    client,
    assert,
  }) => {
    const host = `chat-${suffix}.victim.localhost`
    const bot = await publishBot(client, victim, 'Proven bot')
    ;(await claim(client, victim, bot, host)).assertStatus(200)

    const before = dns.queries()
    const notYet = await verify(client, victim, bot)
    notYet.assertStatus(422)
    notYet.assertBodyContains({ message: 'Domain not verified yet' })
    assert.isAbove(dns.queries(), before, 'the server asked the DNS')
    assert.notInclude(
      (await client.get('/').header('Host', host).redirects(0)).text(),
      'Proven bot'
    )

    // The attacker's record at the victim's name proves nothing for the victim's workspace.
    const attackerRecord = verificationRecord(attacker.workspaceId, host)
    dns.txt.set(attackerRecord.name, [attackerRecord.value])
    ;(await verify(client, victim, bot)).assertStatus(422)

    const record = verificationRecord(victim.workspaceId, host)
    dns.txt.set(record.name, ['unrelated=1', record.value])
    const verified = await verify(client, victim, bot)
    verified.assertStatus(200)
    verified.assertBodyContains({ domain: host, status: 'verified' })
    const served = await client.get('/').header('Host', host)
    served.assertStatus(200)
    assert.include(served.text(), 'Proven bot')

    // The proven host is the victim's: another tenant's public id is not shown under it.
    const elsewhere = `elsewhere-${suffix}`
    await publishBot(client, attacker, 'Borrowed name bot', { publicId: elsewhere })
    ;(await client.get(`/${elsewhere}`)).assertStatus(200)
    const borrowed = await client.get(`/${elsewhere}`).header('Host', host)
    borrowed.assertStatus(404)
    assert.notInclude(borrowed.text(), 'Borrowed name bot')

    // Another tenant: neither the same host under a path nor the same domain, even pending.
    const intruder = await publishBot(client, attacker, 'Attacker bot 2')
    ;(await claim(client, attacker, intruder, `${host}/promo`)).assertStatus(409)
    ;(await claim(client, attacker, intruder, host.toUpperCase())).assertStatus(409)

    // Changing the domain starts over: pending, not served.
    ;(await claim(client, victim, bot, `other-${suffix}.victim.localhost`)).assertStatus(200)
    assert.isNull((await Bot.findOrFail(bot)).customDomainVerifiedAt)
    assert.notInclude(
      (await client.get('/').header('Host', host).redirects(0)).text(),
      'Proven bot'
    )
  })

  test('a pending claim does not keep the real owner from the domain', async ({ client }) => {
    const host = `late-${suffix}.owner.localhost`
    const squatter = await publishBot(client, attacker, 'Squatter')
    ;(await claim(client, attacker, squatter, host)).assertStatus(200)
    const owned = await publishBot(client, victim, 'Owner bot')
    ;(await claim(client, victim, owned, host)).assertStatus(200)
    const record = verificationRecord(victim.workspaceId, host)
    dns.txt.set(record.name, [record.value])
    ;(await verify(client, victim, owned)).assertStatus(200)
    // The squatter cannot prove it, and the host is now the owner's.
    ;(await verify(client, attacker, squatter)).assertStatus(409)
  })

  test("the app's and the viewer's hosts and their subdomains can never be claimed", async ({
    client,
    assert,
  }) => {
    const viewer = `bots-${suffix}.flowcraft.test`
    const restore = overrideViewerUrl(`https://${viewer}`)
    try {
      const bot = await publishBot(client, attacker, 'Phishing bot')
      for (const domain of [viewer, `${viewer}/signin`, `eu.${viewer}`, viewer.toUpperCase()]) {
        const refused = await claim(client, attacker, bot, domain)
        refused.assertStatus(422)
        assert.equal(refused.body().message, 'This domain cannot be used', domain)
      }
      // A row written before the rule (or by hand) is not served there either.
      await Bot.query().where('id', bot).update({
        custom_domain: viewer,
        custom_domain_verified_at: new Date(),
      })
      const root = await client.get('/').header('Host', viewer).redirects(0)
      assert.notEqual(root.status(), 200)
      assert.notInclude(root.text(), 'Phishing bot')
    } finally {
      restore()
    }
  })
})
