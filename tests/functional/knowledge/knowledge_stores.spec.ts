import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import KnowledgeSource from '#models/knowledge_source'
import WorkspaceMember from '#models/workspace_member'
import { closeQueue, startWorkers } from '#queue/queue'
import { CreateCredential } from '#actions/credentials/create_credential'
import { AddSource } from '#actions/knowledge/add_source'
import KnowledgeStore from '#models/knowledge_store'
import { createUser } from '#tests/helpers'
import { sendJson, startStandIn } from '#tests/stand_ins/stand_in_server'
import { startEmbeddingsStandIn } from '#tests/stand_ins/embeddings'
import { knowledgeOwner, waitForSource } from '#tests/functional/knowledge/helpers'

/**
 * Knowledge stores end to end over HTTP (docs/knowledge.md): every source type indexed on
 * the queue and found by keywords with no credentials, hybrid search with an embeddings
 * stand-in, the plan's vectorLimit and the namespace limit, bad sources FAILED with a reason.
 */

test.group('Knowledge stores', (group) => {
  group.setup(async () => {
    await startWorkers()
    return () => closeQueue()
  })

  test('each source type is indexed and found by keywords without credentials', async ({
    client,
    assert,
  }) => {
    const { user } = await knowledgeOwner()
    const site = await startStandIn(({ res, url }) => {
      if (url.pathname === '/shipping') {
        return sendJson(
          res,
          200,
          `<html><head><title>x</title><script>var hidden = "lighthouse"</script></head>
           <body><h1>Shipping</h1><p>Parcels to Iceland travel by <b>ferry</b> &amp; arrive in nine days.</p></body></html>`,
          'text/html; charset=utf-8'
        )
      }
      sendJson(res, 404, { error: 'missing' })
    })

    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Help center', chunkSize: 300, overlapSize: 30 })
    created.assertStatus(201)
    const store = created.body().store
    assert.equal(store.indexName, 'help-center')
    assert.equal(store.chunkingMethod, 'recursive')

    const add = (body: Record<string, unknown>) =>
      client
        .post(`/vectors/${store.id}/sources`)
        .loginAs(user)
        .withCsrfToken()
        .accept('json')
        .json(body)

    const text = await add({
      type: 'TEXT',
      text: 'Our office opens at nine on weekdays.\n\nThe cafeteria serves pancakes on Fridays.',
    })
    text.assertStatus(201)
    assert.equal(text.body().source.status, 'PENDING')
    const qna = await add({
      type: 'QNA',
      pairs: [
        { question: 'How do I reset my password?', answer: 'Use the forgotten password link.' },
        { question: 'Do you sell gift cards?', answer: 'Yes, in amounts from 10 to 500 euros.' },
      ],
    })
    qna.assertStatus(201)
    const page = await add({ type: 'URL', url: `${site.baseUrl}/shipping` })
    page.assertStatus(201)

    const upload = (name: string, content: string, type: string) =>
      client
        .post(`/vectors/${store.id}/sources`)
        .loginAs(user)
        .withCsrfToken()
        .accept('json')
        .file('file', Buffer.from(content), { filename: name, contentType: type })
    const txt = await upload('notes.txt', 'Plain notes about the velvet curtains.', 'text/plain')
    const md = await upload(
      'guide.md',
      '# Guide\n\nCalibrate the **telescope** before sunset.',
      'text/markdown'
    )
    const csv = await upload(
      'prices.csv',
      'product,price\n"Walnut desk, large",420\nOak chair,90\n',
      'text/csv'
    )
    const html = await upload(
      'faq.html',
      '<p>Returns accepted within <em>thirty</em> days.</p><style>.x{}</style>',
      'text/html'
    )
    for (const response of [txt, md, csv, html]) response.assertStatus(201)

    const ids = [text, qna, page, txt, md, csv, html].map((response) => response.body().source.id)
    for (const id of ids) {
      const done = await waitForSource(id)
      assert.equal(done.status, 'COMPLETED', `${done.name}: ${done.error}`)
      assert.isAbove(done.chunkCount, 0)
      assert.equal(done.progress, 100)
    }

    const search = async (query: string) => {
      const response = await client
        .post(`/vectors/${store.id}/search`)
        .loginAs(user)
        .withCsrfToken()
        .accept('json')
        .json({ query, limit: 3 })
      response.assertStatus(200)
      return response.body()
    }
    const expectations: [string, string, string][] = [
      ['pancakes', 'cafeteria serves pancakes', text.body().source.id],
      ['gift cards', 'Q: Do you sell gift cards?\nA: Yes', qna.body().source.id],
      ['ferry Iceland', 'travel by ferry & arrive', page.body().source.id],
      ['velvet', 'velvet curtains', txt.body().source.id],
      ['telescope', 'Calibrate the **telescope**', md.body().source.id],
      ['walnut', 'Walnut desk, large', csv.body().source.id],
      ['returns', 'Returns accepted within thirty days.', html.body().source.id],
    ]
    for (const [query, excerpt, sourceId] of expectations) {
      const result = await search(query)
      assert.equal(result.mode, 'keyword')
      assert.isAtLeast(result.hits.length, 1, query)
      assert.include(result.hits[0].content, excerpt, query)
      assert.equal(result.hits[0].sourceId, sourceId)
      assert.isAbove(result.hits[0].score, 0)
      assert.isNull(result.hits[0].vectorScore)
    }
    // The page's script is not text a visitor sees.
    assert.lengthOf((await search('lighthouse')).hits, 0)

    const listed = await client
      .get(`/vectors/${store.id}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
    listed.assertStatus(200)
    assert.lengthOf(listed.body().sources, 7)
    assert.equal(listed.body().store.sourceCount, 7)
    await site.close()
  })

  test('a store of one text: its match scores 1, whatever the engine ranks it', async ({
    client,
    assert,
  }) => {
    const { user } = await knowledgeOwner()
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Single' })
    created.assertStatus(201)
    const store = created.body().store
    const added = await client
      .post(`/vectors/${store.id}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'The lighthouse keeper feeds the gulls at dawn.' })
    added.assertStatus(201)
    assert.equal((await waitForSource(added.body().source.id)).status, 'COMPLETED')
    const found = await client
      .post(`/vectors/${store.id}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'lighthouse', limit: 3 })
    found.assertStatus(200)
    const [hit] = found.body().hits
    // SQLite's BM25 weighs a word found in every chunk near 0: it used to show as "score 0".
    assert.equal(hit.score, 1)
    assert.isAbove(hit.keywordScore, 0)
  })

  test('hybrid search finds by meaning with embedding credentials', async ({ client, assert }) => {
    const { user, workspace } = await knowledgeOwner()
    const embeddings = await startEmbeddingsStandIn({ apiKey: 'sk-embed' })
    const credential = await new CreateCredential().handle(user, workspace, {
      type: 'openai',
      name: 'Embeddings',
      data: { apiKey: 'sk-embed', baseUrl: embeddings.apiBaseUrl },
    })
    const page = await client.get('/vectors').loginAs(user).withInertia()
    page.assertInertiaComponent('vectors/index')
    const option = page.inertiaProps.embeddingCredentials.find(
      (item: any) => item.id === credential.id
    )
    assert.equal(option.defaultModel, 'text-embedding-3-small')

    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Garage', embeddingCredentialsId: credential.id })
    created.assertStatus(201)
    const storeId = created.body().store.id
    const added = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({
        type: 'QNA',
        pairs: [
          { question: 'Where do I park my car?', answer: 'Level two of the garage.' },
          { question: 'Can I bring my dog?', answer: 'Dogs on a leash are welcome.' },
        ],
      })
    added.assertStatus(201)
    const done = await waitForSource(added.body().source.id)
    assert.equal(done.status, 'COMPLETED', done.error ?? '')
    const stored = await db.from('knowledge_chunks').where('source_id', done.id).select('embedding')
    assert.lengthOf(stored, 2)
    for (const row of stored) assert.equal(Buffer.from(row.embedding).byteLength, 64 * 4)
    const batch = embeddings.requests.find((request: any) => Array.isArray(request.body?.input))
    assert.equal(batch?.body.model, 'text-embedding-3-small')

    // No word in common with the chunk: only the vectors can find it.
    const response = await client
      .post(`/vectors/${storeId}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'automobile', limit: 1 })
    response.assertStatus(200)
    assert.equal(response.body().mode, 'hybrid')
    assert.lengthOf(response.body().hits, 1)
    assert.include(response.body().hits[0].content, 'park my car')
    assert.isNull(response.body().hits[0].keywordScore)
    assert.isAbove(response.body().hits[0].vectorScore, 0.3)

    // Both kinds agree on a chunk: it ranks first with both scores.
    const both = await client
      .post(`/vectors/${storeId}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'dog leash', limit: 2 })
    assert.include(both.body().hits[0].content, 'Dogs on a leash')
    assert.isAbove(both.body().hits[0].keywordScore, 0)
    assert.isAbove(both.body().hits[0].vectorScore, 0)

    // The embedding service down: keyword results, and the reason.
    embeddings.failWith(503)
    const degraded = await client
      .post(`/vectors/${storeId}/search`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ query: 'dog' })
    assert.equal(degraded.body().mode, 'keyword')
    assert.match(degraded.body().warning, /Vector search failed/)
    assert.include(degraded.body().hits[0].content, 'Dogs')

    // ...and a source indexed then fails with the service's words.
    const failing = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'Anything at all' })
    const failed = await waitForSource(failing.body().source.id)
    assert.equal(failed.status, 'FAILED')
    assert.match(failed.error!, /embedding service failed: down/)
    await embeddings.close()
  })

  test('vectorLimit of the plan and the namespace limit, with their messages', async ({
    client,
    assert,
  }) => {
    const free = await knowledgeOwner('FREE')
    const refused = await client
      .post('/vectors')
      .loginAs(free.user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Docs' })
    refused.assertStatus(403)
    assert.equal(refused.body().message, 'Vector store limit reached')
    assert.equal(
      refused.body().description,
      'You have reached the maximum number of vector stores allowed in your plan. Please upgrade your plan to create more.'
    )

    const basic = await knowledgeOwner('BASIC')
    for (const name of ['One', 'Two']) {
      ;(
        await client
          .post('/vectors')
          .loginAs(basic.user)
          .withCsrfToken()
          .accept('json')
          .json({ name })
      ).assertStatus(201)
    }
    const third = await client
      .post('/vectors')
      .loginAs(basic.user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Three' })
    third.assertStatus(403)
    assert.equal(third.body().message, 'Vector store limit reached')
    const page = await client.get('/vectors').loginAs(basic.user).withInertia()
    assert.deepEqual(page.inertiaProps.limit, { used: 2, limit: 2 })

    const unlimited = await knowledgeOwner()
    for (let index = 0; index < 5; index++) {
      const response = await client
        .post('/vectors')
        .loginAs(unlimited.user)
        .withCsrfToken()
        .accept('json')
        .json({ name: `Shard ${index}`, indexName: 'shared-index' })
      response.assertStatus(201)
    }
    const sixth = await client
      .post('/vectors')
      .loginAs(unlimited.user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Shard 6', indexName: 'shared-index' })
    sixth.assertStatus(403)
    assert.equal(sixth.body().message, 'Namespace limit reached')
    assert.match(sixth.body().description, /"shared-index" already holds 5 namespaces/)
    ;(
      await client
        .post('/vectors')
        .loginAs(unlimited.user)
        .withCsrfToken()
        .accept('json')
        .json({ name: 'Other', indexName: 'other' })
    ).assertStatus(201)

    const bad = await client
      .post('/vectors')
      .loginAs(unlimited.user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Bad', chunkSize: 200, overlapSize: 200 })
    bad.assertStatus(422)
    assert.equal(bad.body().message, 'The overlap must be smaller than the chunk size')
  })

  test('bad sources end FAILED with a reason, and nothing crashes', async ({ client, assert }) => {
    const { user, workspace } = await knowledgeOwner()
    const site = await startStandIn(({ res }) => sendJson(res, 404, { error: 'gone' }))
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Bad files' })
    const storeId = created.body().store.id
    const store = await KnowledgeStore.findOrFail(storeId)
    assert.equal(store.workspaceId, workspace.id)

    const corrupt = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .file('file', Buffer.from('this is not a pdf at all'), {
        filename: 'report.pdf',
        contentType: 'application/pdf',
      })
    const empty = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .file('file', Buffer.from('  \n\n  '), { filename: 'empty.txt', contentType: 'text/plain' })
    const binary = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .file('file', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), { filename: 'image.txt' })
    const missing = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'URL', url: `${site.baseUrl}/nothing` })
    const exe = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .file('file', Buffer.from('MZ'), { filename: 'setup.exe' })
    // A 50 MB file: the multipart limit of the HTTP route is lower, so through the action
    // that the route calls, as a worker or an import would.
    const huge = await new AddSource().handle(store, {
      type: 'FILE',
      file: { bytes: new Uint8Array(50 * 1024 * 1024), name: 'huge.txt', mimeType: 'text/plain' },
    })

    const expected: [string, RegExp][] = [
      [corrupt.body().source.id, /The PDF is damaged or not a PDF/],
      [empty.body().source.id, /The document has no text/],
      [binary.body().source.id, /The TXT file is not UTF-8 text/],
      [missing.body().source.id, /The page answered 404/],
      [exe.body().source.id, /"\.exe" files are not read/],
      [huge.id, /The source is 50\.0 MB; the limit is 20\.0 MB/],
    ]
    for (const [id, reason] of expected) {
      const source = await waitForSource(id)
      assert.equal(source.status, 'FAILED')
      assert.match(source.error ?? '', reason)
      assert.equal(source.chunkCount, 0)
    }
    // The huge file was not stored.
    assert.isNull((await KnowledgeSource.findOrFail(huge.id)).fileKey)

    // A URL that is not http(s) is refused before anything is saved.
    const ftp = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'URL', url: 'ftp://example.com/x' })
    ftp.assertStatus(422)
    await site.close()
  })

  test('re-index, delete a source, rename and delete a store', async ({ client, assert }) => {
    const { user } = await knowledgeOwner()
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Drafts' })
    const storeId = created.body().store.id
    const added = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'The marmalade recipe uses bitter oranges.' })
    const sourceId = added.body().source.id
    assert.equal((await waitForSource(sourceId)).status, 'COMPLETED')

    const again = await client
      .post(`/vectors/${storeId}/sources/${sourceId}/reindex`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
    again.assertStatus(200)
    assert.equal(again.body().source.status, 'PENDING')
    const reindexed = await waitForSource(sourceId)
    assert.equal(reindexed.status, 'COMPLETED')
    assert.equal(reindexed.revision, 2)
    const chunks = await db
      .from('knowledge_chunks')
      .where('source_id', sourceId)
      .count('* as total')
    assert.equal(Number(chunks[0].total), 1)

    const renamed = await client
      .patch(`/vectors/${storeId}`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Recipes' })
    renamed.assertStatus(200)
    assert.equal(renamed.body().store.name, 'Recipes')

    // A new chunk size re-indexes every source.
    const resized = await client
      .patch(`/vectors/${storeId}`)
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ chunkSize: 200, overlapSize: 20 })
    resized.assertStatus(200)
    const resizedSource = await waitForSource(sourceId)
    assert.equal(resizedSource.revision, 3)

    const search = () =>
      client
        .post(`/vectors/${storeId}/search`)
        .loginAs(user)
        .withCsrfToken()
        .accept('json')
        .json({ query: 'marmalade' })
    assert.lengthOf((await search()).body().hits, 1)
    ;(
      await client
        .delete(`/vectors/${storeId}/sources/${sourceId}`)
        .loginAs(user)
        .withCsrfToken()
        .accept('json')
    ).assertStatus(200)
    assert.lengthOf((await search()).body().hits, 0)

    ;(
      await client.delete(`/vectors/${storeId}`).loginAs(user).withCsrfToken().accept('json')
    ).assertStatus(200)
    assert.isNull(await KnowledgeStore.find(storeId))
    ;(
      await client.get(`/vectors/${storeId}`).loginAs(user).withCsrfToken().accept('json')
    ).assertStatus(404)
  })

  test('members of other workspaces see nothing; guests only look', async ({ client, assert }) => {
    const { user, workspace } = await knowledgeOwner()
    const created = await client
      .post('/vectors')
      .loginAs(user)
      .withCsrfToken()
      .accept('json')
      .json({ name: 'Private' })
    const storeId = created.body().store.id

    const stranger = (await knowledgeOwner()).user
    ;(
      await client.get(`/vectors/${storeId}`).loginAs(stranger).withCsrfToken().accept('json')
    ).assertStatus(404)
    ;(
      await client
        .post(`/vectors/${storeId}/search`)
        .loginAs(stranger)
        .withCsrfToken()
        .accept('json')
        .json({ query: 'x' })
    ).assertStatus(404)
    ;(
      await client.delete(`/vectors/${storeId}`).loginAs(stranger).withCsrfToken().accept('json')
    ).assertStatus(404)

    const guest = await createUser()
    await WorkspaceMember.create({ workspaceId: workspace.id, userId: guest.id, role: 'GUEST' })
    const shown = await client.get(`/vectors/${storeId}`).loginAs(guest).withInertia()
    shown.assertStatus(200)
    assert.isFalse(shown.inertiaProps.canWrite)
    ;(
      await client
        .post(`/vectors/${storeId}/search`)
        .loginAs(guest)
        .withCsrfToken()
        .accept('json')
        .json({ query: 'x' })
    ).assertStatus(200)
    const refused = await client
      .post(`/vectors/${storeId}/sources`)
      .loginAs(guest)
      .withCsrfToken()
      .accept('json')
      .json({ type: 'TEXT', text: 'no' })
    refused.assertStatus(403)
  })
})
