import { test } from '@japa/runner'
import {
  deleteRecords,
  embedTexts,
  indexHost,
  listIndexes,
  listNamespaces,
  searchRecords,
  upsertRecords,
} from './api.js'
import { runPluginTest, testHttp as http } from '#sdk/testing'
import { startPineconeStandIn, standInVector } from './stand_in.js'

/**
 * The Pinecone client (api.ts) and the Pinecone block/node, against a stand-in of Pinecone's
 * control and data planes (stand_in.ts).
 */

const API_KEY = 'pc-test-key'
const folder = new URL('./', import.meta.url)

type PineconeStandIn = Awaited<ReturnType<typeof startPineconeStandIn>>

function seedDocs(pinecone: PineconeStandIn) {
  pinecone.seed('docs', 'faq', [
    {
      _id: 'r1',
      chunk_text: 'Refunds are paid within 14 days of the return.',
      category: 'billing',
    },
    { _id: 'r2', chunk_text: 'Returns are free for 30 days.', category: 'shipping' },
    { _id: 'r3', chunk_text: 'Our office is in Lyon.', category: 'company' },
  ])
}

test.group('Pinecone client', (group) => {
  let pinecone: PineconeStandIn
  group.each.setup(async () => {
    pinecone = await startPineconeStandIn({ apiKey: API_KEY, indexes: ['docs', 'other'] })
    return () => pinecone.close()
  })

  test('indexes, their host, namespaces and a search of records by text', async ({ assert }) => {
    const account = { apiKey: API_KEY, baseUrl: pinecone.baseUrl }
    seedDocs(pinecone)
    assert.deepEqual(
      (await listIndexes(http, account)).map((index) => index.name),
      ['docs', 'other']
    )
    const host = await indexHost(http, account, 'docs')
    assert.equal(host, `${pinecone.baseUrl}/idx/docs`)
    assert.deepEqual(await listNamespaces(http, account, host), [{ name: 'faq', recordCount: 3 }])
    const hits = await searchRecords(http, account, {
      host,
      namespace: 'faq',
      text: 'when are refunds paid',
      topK: 2,
    })
    assert.deepEqual(hits[0], {
      id: 'r1',
      score: 0.75,
      fields: { chunk_text: 'Refunds are paid within 14 days of the return.' },
    })
    const search = pinecone.requests.at(-1)!
    assert.equal(search.path, '/idx/docs/records/namespaces/faq/search')
    assert.equal(search.headers['api-key'], API_KEY)
    assert.equal(search.headers['x-pinecone-api-version'], '2025-01')
    assert.deepEqual(JSON.parse(search.body), {
      query: { inputs: { text: 'when are refunds paid' }, top_k: 2 },
      fields: ['chunk_text'],
    })
  })

  test('upsert in batches of 96 (NDJSON), delete by id and by namespace', async ({ assert }) => {
    const account = { apiKey: API_KEY, baseUrl: pinecone.baseUrl }
    const host = await indexHost(http, account, 'docs')
    const records = Array.from({ length: 100 }, (_, index) => ({
      id: `c${index}`,
      chunk_text: `chunk number ${index}`,
      source: 'guide.pdf',
    }))
    await upsertRecords(http, account, { host, namespace: 'store-1', records })
    const upserts = pinecone.requests.filter((request) => request.path.endsWith('/upsert'))
    assert.lengthOf(upserts, 2)
    assert.equal(upserts[0].headers['content-type'], 'application/x-ndjson')
    assert.deepEqual(JSON.parse(upserts[0].body.split('\n')[0]), {
      _id: 'c0',
      chunk_text: 'chunk number 0',
      source: 'guide.pdf',
    })
    assert.lengthOf(pinecone.recordsOf('docs', 'store-1'), 100)

    await deleteRecords(http, account, { host, namespace: 'store-1', ids: ['c0', 'c1'] })
    assert.lengthOf(pinecone.recordsOf('docs', 'store-1'), 98)
    await deleteRecords(http, account, { host, namespace: 'store-1', all: true })
    assert.lengthOf(pinecone.recordsOf('docs', 'store-1'), 0)
  })

  test('hosted embeddings with llama-text-embed-v2, one vector per text, in order', async ({
    assert,
  }) => {
    const account = { apiKey: API_KEY, baseUrl: pinecone.baseUrl }
    const texts = Array.from({ length: 100 }, (_, index) => `text ${index} abc`)
    const { vectors, totalTokens } = await embedTexts(http, account, {
      texts,
      inputType: 'passage',
    })
    assert.lengthOf(vectors, 100)
    assert.deepEqual(vectors[5], standInVector('text 5 abc'))
    assert.isAbove(totalTokens, 0)
    const embeds = pinecone.requests.filter((request) => request.path === '/embed')
    assert.lengthOf(embeds, 2)
    assert.deepEqual(JSON.parse(embeds[0].body).parameters, {
      input_type: 'passage',
      truncate: 'END',
    })
    assert.equal(JSON.parse(embeds[0].body).model, 'llama-text-embed-v2')
  })

  test("Pinecone's refusals carry its status and message", async ({ assert }) => {
    const wrong = { apiKey: 'wrong', baseUrl: pinecone.baseUrl }
    await assert.rejects(() => listIndexes(http, wrong), 'Pinecone answered 401: Invalid API Key')
    const account = { apiKey: API_KEY, baseUrl: pinecone.baseUrl }
    await assert.rejects(
      () => indexHost(http, account, 'nope'),
      'Pinecone: there is no index named "nope"'
    )
    await assert.rejects(
      () => listIndexes(http, { apiKey: '' }),
      'Pinecone: the API key is missing'
    )
  })
})

test.group('Pinecone block and node', (group) => {
  let pinecone: PineconeStandIn
  group.each.setup(async () => {
    pinecone = await startPineconeStandIn({ apiKey: API_KEY })
    seedDocs(pinecone)
    return () => pinecone.close()
  })

  const credentials = () => ({ apiKey: API_KEY, baseUrl: pinecone.baseUrl })

  test('in a bot: the matching texts, joined with blank lines, go to each mapped variable', async ({
    assert,
  }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'bot',
      credentials: credentials(),
      options: {
        indexName: 'docs',
        namespace: 'faq',
        text: '{{Question}}',
        score: 0.3,
        responseMapping: [{ variableId: 'v-context' }],
      },
      variables: [
        { id: 'v-question', name: 'Question', value: 'are returns and refunds free' },
        { id: 'v-context', name: 'Context' },
      ],
    })
    assert.deepEqual(outcome.errors, [])
    const set = JSON.stringify(outcome.variablesSet)
    assert.include(set, 'v-context')
    assert.include(
      set,
      JSON.stringify(
        'Returns are free for 30 days.\n\nRefunds are paid within 14 days of the return.'
      )
    )
    const search = pinecone.requests.find((request) => request.path.endsWith('/search'))!
    assert.deepEqual(JSON.parse(search.body), {
      query: { inputs: { text: 'are returns and refunds free' }, top_k: 5 },
      fields: ['category', 'chunk_text'],
    })
    // Pinecone's calls, in order: the index list (for the host), then the search.
    assert.deepEqual(
      pinecone.requests.map((request) => `${request.method} ${request.path}`),
      ['GET /indexes', 'POST /idx/docs/records/namespaces/faq/search']
    )
  })

  test('nothing above the score: an error for each variable', async ({ assert }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'bot',
      credentials: credentials(),
      options: {
        indexName: 'docs',
        namespace: 'faq',
        text: 'office refunds returns days',
        score: 0.9,
        responseMapping: [{ variableId: 'v-a' }, { variableId: 'v-b' }],
      },
      variables: [
        { id: 'v-a', name: 'A' },
        { id: 'v-b', name: 'B' },
      ],
    })
    assert.deepEqual(outcome.errors, [
      'Error: No matches found in the response for variable v-a',
      'Error: No matches found in the response for variable v-b',
    ])
    assert.notInclude(JSON.stringify(outcome.variablesSet), 'v-a')
  })

  test('in a workflow: the output has the text and the matches with their fields', async ({
    assert,
  }) => {
    const outcome = await runPluginTest({
      folder,
      surface: 'workflow',
      credentials: credentials(),
      options: { indexName: 'docs', namespace: 'faq', text: 'office in Lyon', score: 0.5, topK: 1 },
    })
    assert.deepEqual(outcome.errors, [])
    assert.deepEqual(outcome.output, {
      text: 'Our office is in Lyon.',
      matches: [{ id: 'r3', score: 1, chunk_text: 'Our office is in Lyon.', category: 'company' }],
    })
  })

  test('an unknown index or a wrong key is the block error', async ({ assert }) => {
    const missing = await runPluginTest({
      folder,
      surface: 'workflow',
      credentials: credentials(),
      options: { indexName: 'nope', namespace: 'faq', text: 'x', score: 0 },
    })
    assert.deepEqual(missing.errors, ['Pinecone: there is no index named "nope"'])
    const refused = await runPluginTest({
      folder,
      surface: 'bot',
      credentials: { apiKey: 'wrong', baseUrl: pinecone.baseUrl },
      options: { indexName: 'docs', namespace: 'faq', text: 'x', score: 0 },
    })
    assert.deepEqual(refused.errors, ['Pinecone answered 401: Invalid API Key'])
  })

  test('the editor lists indexes and the namespaces of the chosen index', async ({ assert }) => {
    const { fetchers } = await import('./runner.js')
    const context = { credentials: credentials(), http, options: { indexName: 'docs' } } as any
    assert.deepEqual(await fetchers.indexes(context), [{ value: 'docs', label: 'docs' }])
    assert.deepEqual(await fetchers.namespaces(context), [
      { value: 'faq', label: 'faq (3 records)' },
    ])
  })
})
