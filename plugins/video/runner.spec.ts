import { test } from '@japa/runner'
import { detectVideo, run } from './runner.js'
import { runBlock } from '#sdk/testing'

test.group('Video bubble runner', () => {
  test('detects the provider and the video id', ({ assert }) => {
    assert.deepEqual(detectVideo('https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10'), {
      type: 'youtube',
      id: 'dQw4w9WgXcQ',
    })
    assert.deepEqual(detectVideo('https://youtu.be/dQw4w9WgXcQ?si=x'), {
      type: 'youtube',
      id: 'dQw4w9WgXcQ',
    })
    assert.deepEqual(detectVideo('https://www.youtube.com/embed/abc123'), {
      type: 'youtube',
      id: 'abc123',
    })
    assert.deepEqual(detectVideo('https://youtube.com/shorts/s1'), {
      type: 'youtube',
      id: 's1',
      isVertical: true,
    })
    assert.deepEqual(detectVideo('https://vimeo.com/76979871'), { type: 'vimeo', id: '76979871' })
    assert.deepEqual(detectVideo('https://player.vimeo.com/video/76979871?h=x'), {
      type: 'vimeo',
      id: '76979871',
    })
    assert.deepEqual(detectVideo('https://www.tiktok.com/@user/video/7234567890'), {
      type: 'tiktok',
      id: '7234567890',
      isVertical: true,
    })
    assert.deepEqual(detectVideo('https://play.gumlet.io/embed/64bfb0913ed6e5b7a6e2e4a8'), {
      type: 'gumlet',
      id: '64bfb0913ed6e5b7a6e2e4a8',
    })
    assert.deepEqual(detectVideo('https://x.test/movie.mp4'), { type: 'url' })
    assert.deepEqual(detectVideo('https://www.youtube.com/'), { type: 'url' })
    assert.deepEqual(detectVideo('not a url'), { type: 'url' })
    assert.deepEqual(detectVideo(undefined), { type: 'url' })
  })

  test('sends an embedded video with the defaults', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'vi',
      options: { url: 'https://youtu.be/abc', queryParamsStr: 'start=10' },
    })
    assert.deepEqual(result.messages, [
      {
        id: 'vi',
        type: 'video',
        content: {
          url: 'https://youtu.be/abc',
          type: 'youtube',
          id: 'abc',
          height: 400,
          aspectRatio: '16/9',
          maxWidth: '100%',
          queryParamsStr: 'start=10',
          areControlsDisplayed: true,
          isAutoplayEnabled: true,
        },
      },
    ])
  })

  test('a file link plays as a url video with the chosen settings', async ({ assert }) => {
    const result = await runBlock(run, {
      blockId: 'vi',
      options: {
        url: ' https://x.test/a.mp4 ',
        type: 'youtube',
        id: 'stale',
        height: '300',
        aspectRatio: '4/3',
        maxWidth: '300px',
        areControlsDisplayed: false,
        isAutoplayEnabled: false,
      },
    })
    assert.deepEqual(result.messages![0].content, {
      url: 'https://x.test/a.mp4',
      type: 'url',
      height: 300,
      aspectRatio: '4/3',
      maxWidth: '300px',
      areControlsDisplayed: false,
      isAutoplayEnabled: false,
    })
  })

  test('upright videos get 9/16 at 400px unless the builder chose otherwise', async ({
    assert,
  }) => {
    const byDefault = await runBlock(run, {
      blockId: 'vi',
      options: { url: 'https://www.tiktok.com/@a/video/1', aspectRatio: '16/9', maxWidth: '100%' },
    })
    assert.deepInclude(byDefault.messages![0].content as object, {
      type: 'tiktok',
      id: '1',
      aspectRatio: '9/16',
      maxWidth: '400px',
      height: 400,
    })
    const chosen = await runBlock(run, {
      blockId: 'vi',
      options: { url: 'https://youtube.com/shorts/s1', aspectRatio: '1/1', maxWidth: '250px' },
    })
    assert.deepInclude(chosen.messages![0].content as object, {
      aspectRatio: '1/1',
      maxWidth: '250px',
    })
  })
})
