import { test } from '@japa/runner'
import { overrideBrainServiceUrl } from '#sdk/brain'
import { runPluginTest } from '#sdk/testing'
import { startBrainStandIn } from './stand_in.js'

/**
 * Text to Video against a stand-in of the brain service (stand_in.ts), pointed at with
 * overrideBrainServiceUrl as BRAIN_SERVICE_URL would.
 */
const folder = new URL('./', import.meta.url)

test.group('Plugin Text to Video', () => {
  test('POST /generate-video with the options; mapped fields saved, video_path by default', async ({
    assert,
    cleanup,
  }) => {
    const brain = await startBrainStandIn()
    cleanup(() => brain.close())
    cleanup(overrideBrainServiceUrl(`${brain.baseUrl}/`))
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: {
        videoMode: 'short',
        language: 'en',
        scriptPrompt: 'Tides of {{Place}}',
        backgroundMusic: '',
        responseMapping: [
          { field: '', variableId: 'v_video' },
          { field: 'duration', variableId: 'v_duration' },
          { field: 'thumbnail', variableId: 'v_thumb' },
        ],
      },
      variables: [
        { id: 'v_place', name: 'Place', value: 'Brittany' },
        { id: 'v_video', name: 'Video', value: null },
        { id: 'v_duration', name: 'Duration', value: null },
        { id: 'v_thumb', name: 'Thumbnail', value: null },
      ],
    })
    assert.lengthOf(brain.requests, 1)
    assert.equal(brain.requests[0].path, '/generate-video')
    assert.deepEqual(brain.requests[0].body, {
      mode: 'short',
      language: 'en',
      topic: 'Tides of Brittany',
      background_music: null,
    })
    assert.deepEqual(run.variablesSet, [
      { id: 'v_video', value: 'https://cdn.brain.example/videos/short-en.mp4' },
      { id: 'v_duration', value: '42' },
    ])
    assert.deepEqual(run.errors, ['Field thumbnail does not exist in the API response'])
  })

  test('a refusal is logged with its detail in a bot and fails a workflow node', async ({
    assert,
    cleanup,
  }) => {
    const brain = await startBrainStandIn()
    cleanup(() => brain.close())
    cleanup(overrideBrainServiceUrl(brain.baseUrl))
    const options = { videoMode: 'short', language: 'en', scriptPrompt: 'fail' }
    const bot = await runPluginTest({ folder, surface: 'bot', options })
    assert.deepEqual(bot.errors, [
      'Text to Video: The brain service refused /generate-video: Rendering failed',
    ])
    const node = await runPluginTest({ folder, surface: 'workflow', options }).catch((e) => e)
    const message = node instanceof Error ? node.message : JSON.stringify(node.errors)
    assert.include(message, 'Rendering failed')

    const fine = await runPluginTest({
      folder,
      surface: 'workflow',
      options: { ...options, scriptPrompt: 'Rivers' },
    })
    assert.equal((fine.output as any).video_path, 'https://cdn.brain.example/videos/short-en.mp4')
  })

  test('without BRAIN_SERVICE_URL the block says so and calls nothing', async ({
    assert,
    cleanup,
  }) => {
    cleanup(overrideBrainServiceUrl(''))
    const run = await runPluginTest({
      folder,
      surface: 'bot',
      options: { videoMode: 'short', language: 'en', scriptPrompt: 'x' },
    })
    assert.deepEqual(run.errors, [
      'Text to Video: The brain service is not configured (BRAIN_SERVICE_URL)',
    ])
  })
})
