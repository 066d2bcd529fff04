import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { closeQueue, startWorkers } from '#queue/queue'
import { CreateCredential } from '#actions/credentials/create_credential'
import { searchKnowledge } from '#services/knowledge/plugin_access'
import { aiPort } from '#services/ai/credits'
import { startPineconeStandIn } from '../../../plugins/pinecone/stand_in.js'
import { startEmbeddingsStandIn } from '#tests/stand_ins/embeddings'
import { knowledgeOwner, waitForSource } from '#tests/functional/knowledge/helpers'

/**
 * Knowledge stores kept in Pinecone (docs/knowledge.md, "Stores in Pinecone") against the
 * Pinecone stand-in (control plane, records upsert/search, list by prefix, delete), and the
 * AI credits every embedding costs, on both backends.
 */

const API_KEY = 'pc-test-key'

function usagesOf(userId: string) {
  return db.from('ai_usages').where('account_id', userId).orderBy('id', 'asc')
}

const MANUAL = [
  'The lighthouse keeper climbs the spiral stairs at dusk to light the lamp.',
  'Ferries leave the harbour every hour in summer and twice a day in winter.',
  'The museum of maps opens on Tuesdays and keeps globes from four centuries.',
  'Fishermen mend their nets on the pier while gulls wait for scraps.',
].join('\n\n')

test.group('Knowledge stores in Pinecone', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('a store lives in a Pinecone namespace: indexed, searched, re-indexed, deleted', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await knowledgeOwner()
    const pinecone = await startPineconeStandIn({
      apiKey: API_KEY,
      indexes: ['docs'],
      plainIndexes: ['vectors-only'],
    })
    const credential = await new CreateCredential().handle(user, workspace, {
      type: 'pinecone',
      name: 'Pinecone',
      data: { apiKey: API_KEY, baseUrl: pinecone.baseUrl },
    })
    const send = (method: 'post' | 'delete', url: string, body?: Record<string, unknown>) => {
      const request = client[method](url).loginAs(user).withCsrfToken().accept('json')
      return body ? request.json(body) : request
    }

    const page = await client.get('/vectors').loginAs(user).withInertia()
    assert.deepEqual(page.inertiaProps.backendCredentials, [
      { id: credential.id, name: 'Pinecone', backend: 'pinecone' },
    ])
    const listed = await client
      .get(`/vectors/backend-indexes?credentialsId=${credential.id}`)
      .loginAs(user)
      .accept('json')
    listed.assertStatus(200)
    assert.deepEqual(listed.body().indexes, [
      { name: 'docs', integrated: true, model: 'llama-text-embed-v2' },
      { name: 'vectors-only', integrated: false, model: null },
    ])

    // Only an index that embeds text itself can hold a store.
    const plain = await send('post', '/vectors', {
      name: 'Harbour',
      backend: 'pinecone',
      backendCredentialsId: credential.id,
      indexName: 'vectors-only',
    })
    plain.assertStatus(422)
    assert.match(JSON.stringify(plain.body()), /does not embed text/)
    const missing = await send('post', '/vectors', {
      name: 'Harbour',
      backend: 'pinecone',
      backendCredentialsId: credential.id,
      indexName: 'nowhere',
    })
    missing.assertStatus(422)
    assert.match(JSON.stringify(missing.body()), /no index named \\"nowhere\\"/)

    const created = await send('post', '/vectors', {
      name: 'Harbour',
      backend: 'pinecone',
      backendCredentialsId: credential.id,
      indexName: 'docs',
      backendNamespace: 'harbour',
      chunkSize: 100,
      overlapSize: 0,
      // Ignored: Pinecone embeds a Pinecone store's chunks.
      embeddingModel: 'text-embedding-3-small',
    })
    created.assertStatus(201)
    const store = created.body().store
    assert.equal(store.backend, 'pinecone')
    assert.equal(store.indexName, 'docs')
    assert.equal(store.backendNamespace, 'harbour')
    assert.isNull(store.embeddingModel)
    const twice = await send('post', '/vectors', {
      name: 'Harbour again',
      backend: 'pinecone',
      backendCredentialsId: credential.id,
      indexName: 'docs',
      backendNamespace: 'harbour',
    })
    twice.assertStatus(422)
    assert.match(JSON.stringify(twice.body()), /already uses this namespace/)

    const added = await send('post', `/vectors/${store.id}/sources`, {
      type: 'TEXT',
      name: 'Island guide',
      text: MANUAL,
    })
    added.assertStatus(201)
    const sourceId = added.body().source.id
    const done = await waitForSource(sourceId)
    assert.equal(done.status, 'COMPLETED', done.error ?? '')
    assert.equal(done.chunkCount, 4)
    const records = pinecone.recordsOf('docs', 'harbour')
    assert.deepEqual(
      records.map((record) => record._id),
      [0, 1, 2, 3].map((position) => `${sourceId}#${position}`)
    )
    assert.equal(records[1].source_name, 'Island guide')
    assert.equal(records[1].source_id, sourceId)
    assert.include(records[1].chunk_text, 'Ferries leave the harbour')
    // Nothing of it in this app's database: the chunks live in Pinecone.
    const local = await db.from('knowledge_chunks').where('source_id', sourceId).count('* as n')
    assert.equal(Number(local[0].n), 0)

    // The store page's search box.
    const searched = await send('post', `/vectors/${store.id}/search`, {
      query: 'when do ferries leave',
      limit: 2,
    })
    searched.assertStatus(200)
    assert.equal(searched.body().mode, 'backend')
    const [best] = searched.body().hits
    assert.include(best.content, 'Ferries leave the harbour')
    assert.equal(best.sourceName, 'Island guide')
    assert.equal(best.sourceId, sourceId)
    assert.equal(best.position, 1)
    const searchRequest = pinecone.requests.find((request: any) =>
      request.path.endsWith('/records/namespaces/harbour/search')
    )
    assert.isDefined(searchRequest)

    // The lookup block's and agents' way in: same hits, the query charged to the caller.
    const before = (await usagesOf(user.id)).length
    const lookup = await searchKnowledge({
      workspaceId: workspace.id,
      storeId: store.id,
      query: 'museum globes',
      limit: 1,
      ai: aiPort({ ownerId: user.id, workspaceId: workspace.id, source: 'vector-store-lookup' }),
    })
    assert.isTrue(lookup.ok)
    if (lookup.ok) assert.include(lookup.hits[0].content, 'museum of maps')
    const charged = (await usagesOf(user.id)).slice(before)
    assert.lengthOf(charged, 1)
    assert.equal(charged[0].model, 'llama-text-embed-v2')
    assert.equal(charged[0].source, 'vector-store-lookup')
    assert.equal(charged[0].input_tokens, 2)

    // A record left from an older, longer version goes on re-index.
    pinecone.seed('docs', 'harbour', [{ _id: `${sourceId}#9`, chunk_text: 'stale chunk' }])
    const reindexed = await send('post', `/vectors/${store.id}/sources/${sourceId}/reindex`)
    reindexed.assertStatus(200)
    assert.equal((await waitForSource(sourceId)).status, 'COMPLETED')
    assert.notInclude(
      pinecone.recordsOf('docs', 'harbour').map((record) => record._id),
      `${sourceId}#9`
    )
    assert.lengthOf(pinecone.recordsOf('docs', 'harbour'), 4)

    // Another source, then deleting the first removes only its records.
    const other = await send('post', `/vectors/${store.id}/sources`, {
      type: 'QNA',
      pairs: [{ question: 'Is there a bakery?', answer: 'Yes, by the church.' }],
    })
    const otherId = other.body().source.id
    assert.equal((await waitForSource(otherId)).status, 'COMPLETED')
    const removed = await send('delete', `/vectors/${store.id}/sources/${sourceId}`)
    removed.assertStatus(200)
    assert.deepEqual(
      pinecone.recordsOf('docs', 'harbour').map((record) => record._id),
      [`${otherId}#0`]
    )

    // Deleting the store deletes its records.
    const gone = await send('delete', `/vectors/${store.id}`)
    gone.assertStatus(200)
    assert.lengthOf(pinecone.recordsOf('docs', 'harbour'), 0)
    await pinecone.close()
  })

  test('a Pinecone that refuses the key fails the source with its reason', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await knowledgeOwner()
    const pinecone = await startPineconeStandIn({ apiKey: API_KEY, indexes: ['docs'] })
    const credential = await new CreateCredential().handle(user, workspace, {
      type: 'pinecone',
      name: 'Pinecone',
      data: { apiKey: API_KEY, baseUrl: pinecone.baseUrl },
    })
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({
        name: 'Shop',
        backend: 'pinecone',
        backendCredentialsId: credential.id,
        indexName: 'docs',
      })
    created.assertStatus(201)
    assert.equal(created.body().store.backendNamespace, '')
    // The key is revoked in Pinecone afterwards.
    pinecone.setApiKey('another-key')
    const added = await client
      .post(`/vectors/${created.body().store.id}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'Opening hours: nine to five.' })
    const failed = await waitForSource(added.body().source.id)
    assert.equal(failed.status, 'FAILED')
    assert.match(
      failed.error!,
      /Pinecone could not be reached: Pinecone answered 401: Invalid API Key/
    )

    const searched = await searchKnowledge({
      workspaceId: workspace.id,
      storeId: created.body().store.id,
      query: 'hours',
    })
    assert.deepEqual(searched, {
      ok: false,
      reason: 'unavailable',
      message: 'Pinecone answered 401: Invalid API Key',
    })
    await pinecone.close()
  })

  test('embeddings cost AI credits: indexing and queries, refused with none left', async ({
    client,
    assert,
  }) => {
    const { user, workspace } = await knowledgeOwner()
    const embeddings = await startEmbeddingsStandIn({ apiKey: 'sk-embed' })
    const credential = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'Embeddings',
      data: { apiKey: 'sk-embed', baseUrl: embeddings.apiBaseUrl },
    })
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Costs', embeddingCredentialsId: credential.id })
    const storeId = created.body().store.id
    const added = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'Seven words in this little test text.' })
    assert.equal((await waitForSource(added.body().source.id)).status, 'COMPLETED')
    const indexed = await usagesOf(user.id)
    assert.lengthOf(indexed, 1)
    assert.equal(indexed[0].model, 'text-embedding-3-small')
    assert.equal(indexed[0].source, 'knowledge')
    // The tokens the service counted (the stand-in counts words).
    assert.equal(indexed[0].input_tokens, 7)
    assert.isAbove(Number(indexed[0].credits_used), 0)

    const searched = await client
      .post(`/vectors/${storeId}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'little text' })
    assert.equal(searched.body().mode, 'hybrid')
    const afterSearch = await usagesOf(user.id)
    assert.lengthOf(afterSearch, 2)
    assert.equal(afterSearch[1].input_tokens, 2)

    // No credit left: indexing fails saying so, search falls back to keywords.
    await db.from('users').where('id', user.id).update({ ai_credits: 0 })
    const broke = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'Another text' })
    const failed = await waitForSource(broke.body().source.id)
    assert.equal(failed.status, 'FAILED')
    assert.match(failed.error!, /No AI credits left/)
    const keywordOnly = await client
      .post(`/vectors/${storeId}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'little text' })
    assert.equal(keywordOnly.body().mode, 'keyword')
    assert.match(keywordOnly.body().warning, /No AI credits left/)
    assert.lengthOf(await usagesOf(user.id), 2)
    await embeddings.close()
  })
})
