import { test } from '@japa/runner'
import { readFile } from 'node:fs/promises'
import { pluginRegistry } from '#services/plugin_registry'
import { pathFor } from '#services/storage'
import type { Fetcher } from '#plugins/define_plugin'
import { MP3_BYTES, PNG_BYTES } from '#tests/stand_ins/openai'
import { descriptions, runBlock, usagesOf } from './openai_fixtures.js'
import { KEY, setup, streamerContext } from '#tests/functional/ai/openai_setup'

test.group('OpenAI: Create speech', () => {
  const speech = (credentialsId: string | undefined, extra: Record<string, unknown> = {}) => ({
    action: 'Create speech',
    credentialsId,
    model: 'tts-1',
    input: 'Bonjour {{City}}',
    voice: 'nova',
    saveUrlInVariableId: 'vUrl',
    ...extra,
  })

  test('stores the mp3 and saves its public URL', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'openai', speech(credentialsId))
    assert.deepEqual(out.logs, [])
    const url = String(out.value('vUrl'))
    assert.match(url, /\/storage\/public\/.+\.mp3$/)
    const stored = await readFile(pathFor(url.slice(url.indexOf('/storage/') + 9)))
    assert.isTrue(stored.equals(MP3_BYTES))
    const [call] = standIn.callsTo('/v1/audio/speech')
    assert.equal(call.headers.authorization, `Bearer ${KEY}`)
    assert.deepInclude(call.json, { model: 'tts-1', input: 'Bonjour Paris', voice: 'nova' })
    const [usage] = await usagesOf(owner)
    assert.equal(usage.model, 'tts-1')
    assert.equal(usage.inputTokens, Math.ceil('Bonjour Paris'.length / 4))
  })

  test('runtime checks word for word', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const logsOf = async (extra: Record<string, unknown>, withKey = true) =>
      descriptions(
        (await runBlock(owner, 'openai', speech(withKey ? credentialsId : undefined, extra))).logs
      )
    assert.deepEqual(await logsOf({ input: '' }), ['Create speech input is empty'])
    assert.deepEqual(await logsOf({ voice: '' }), ['Create speech voice is empty'])
    assert.deepEqual(await logsOf({ saveUrlInVariableId: '' }), [
      'Create speech save variable is empty',
    ])
    assert.deepEqual(await logsOf({}, false), ['No API key provided'])
    assert.lengthOf(standIn.requests, 0)
    standIn.failWith(400, { error: { message: 'bad' } })
    assert.deepEqual(await logsOf({}), ['An error occured while converting the text to speech'])
  })
})

test.group('OpenAI: Create transcription', () => {
  test('uploads the fetched audio as multipart with whisper-1 and saves the text', async ({
    assert,
    cleanup,
  }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup, { transcript: 'Hola mundo' })
    const out = await runBlock(owner, 'openai', {
      action: 'Create transcription',
      credentialsId,
      url: `${standIn.origin}/files/speech.mp3`,
      transcriptionVariableId: 'vAnswer',
    })
    assert.deepEqual(out.logs, [])
    assert.equal(out.value('vAnswer'), 'Hola mundo')
    const [call] = standIn.callsTo('/v1/audio/transcriptions')
    assert.equal(call.headers.authorization, `Bearer ${KEY}`)
    assert.deepEqual(call.form, {
      file: { name: 'speech.mp3', type: 'audio/mpeg', size: MP3_BYTES.length },
      model: { text: 'whisper-1' },
    })
    const [usage] = await usagesOf(owner)
    assert.equal(usage.model, 'whisper-1')
  })

  test('runtime checks word for word', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const run = async (extra: Record<string, unknown>) =>
      descriptions(
        (
          await runBlock(owner, 'openai', {
            action: 'Create transcription',
            credentialsId,
            url: `${standIn.origin}/files/speech.mp3`,
            transcriptionVariableId: 'vAnswer',
            ...extra,
          })
        ).logs
      )
    assert.deepEqual(await run({ url: '' }), ['Audio URL is empty'])
    assert.deepEqual(await run({ transcriptionVariableId: '' }), ['Missing transcription variable'])
    assert.lengthOf(standIn.requests, 0)
    standIn.failWith(500)
    assert.deepEqual(await run({}), ['An API call error occured while generating the response'])
  })
})

test.group('OpenAI: Create image', () => {
  test('stores the generated image and saves its URL', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    const out = await runBlock(owner, 'openai', {
      action: 'Create image',
      credentialsId,
      prompt: 'A cat in {{City}}',
      size: '512x512',
      saveUrlInVariableId: 'vUrl',
    })
    assert.deepEqual(out.logs, [])
    const url = String(out.value('vUrl'))
    assert.match(url, /\/storage\/public\/.+\.png$/)
    const stored = await readFile(pathFor(url.slice(url.indexOf('/storage/') + 9)))
    assert.isTrue(stored.equals(PNG_BYTES))
    const [call] = standIn.callsTo('/v1/images/generations')
    assert.deepInclude(call.json, { prompt: 'A cat in Paris', size: '512x512', n: 1 })
    assert.lengthOf(await usagesOf(owner), 1)
  })

  test('an image answered as a URL is downloaded and stored', async ({ assert, cleanup }) => {
    const { owner, credentialsId } = await setup(cleanup, { imagesAs: 'url' })
    const out = await runBlock(owner, 'openai', {
      action: 'Create image',
      credentialsId,
      prompt: 'A cat',
      size: '256x256',
      saveUrlInVariableId: 'vUrl',
    })
    const url = String(out.value('vUrl'))
    const stored = await readFile(pathFor(url.slice(url.indexOf('/storage/') + 9)))
    assert.isTrue(stored.equals(PNG_BYTES))
  })

  test('a failure logs "An error occurred while generating image"', async ({ assert, cleanup }) => {
    const { standIn, owner, credentialsId } = await setup(cleanup)
    standIn.failWith(400, { error: { message: 'Your request was rejected' } })
    const out = await runBlock(owner, 'openai', {
      action: 'Create image',
      credentialsId,
      prompt: 'A cat',
      size: '1024x1024',
      saveUrlInVariableId: 'vUrl',
    })
    assert.deepEqual(descriptions(out.logs), ['An error occurred while generating image'])
    assert.deepInclude(out.logs[0].details as object, { status: 400 })

    // Without a variable to show it, no picture is paid for.
    standIn.failWith(null)
    const unsaved = await runBlock(owner, 'openai', {
      action: 'Create image',
      credentialsId,
      prompt: 'A cat',
      size: '1024x1024',
    })
    assert.deepEqual(descriptions(unsaved.logs), ['An error occurred while generating image'])
    assert.lengthOf(standIn.callsTo('/v1/images/generations'), 1)
  })
})

test.group('OpenAI: models fetcher', () => {
  test('lists the gpt and tts models of the key', async ({ assert, cleanup }) => {
    const { standIn, owner } = await setup(cleanup, {
      models: ['gpt-4o', 'whisper-1', 'tts-1-hd', 'dall-e-3', 'gpt-4o-mini'],
    })
    const fetchers = await (
      await pluginRegistry()
    ).exportOf<Record<string, Fetcher>>('openai', 'fetchers')
    const { context } = await streamerContext(owner, {})
    context.credentials = { apiKey: KEY, baseUrl: standIn.baseUrl }
    assert.deepEqual(await fetchers!.models(context as any), [
      { value: 'gpt-4o', label: 'gpt-4o' },
      { value: 'tts-1-hd', label: 'tts-1-hd' },
      { value: 'gpt-4o-mini', label: 'gpt-4o-mini' },
    ])
  })
})
