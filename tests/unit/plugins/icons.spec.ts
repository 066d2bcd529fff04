import { test } from '@japa/runner'
import { fileURLToPath } from 'node:url'
import { iconProblemOf } from '#plugins/registry'

const ELEVENLABS = fileURLToPath(new URL('../../../plugins/elevenlabs', import.meta.url))

test.group('Plugins | icons', () => {
  test('any lucide icon name is accepted, not only the ones in the editor bundle', ({ assert }) => {
    // 'reply' and 'mouse-pointer-click' used to become a generic piece in the editors.
    for (const name of ['sparkles', 'reply', 'mouse-pointer-click', 'cloud-sun', 'qr-code'])
      assert.isUndefined(iconProblemOf(name, ELEVENLABS, 'plugins/x'), name)
  })

  test('a name lucide does not have, or a missing svg file, is refused with a clear message', ({
    assert,
  }) => {
    assert.equal(
      iconProblemOf('sparkels', ELEVENLABS, 'plugins/x'),
      'plugins/x: icon "sparkels" is neither a lucide icon name (https://lucide.dev/icons) nor an .svg file of the folder'
    )
    assert.isUndefined(iconProblemOf('icon.svg', ELEVENLABS, 'plugins/x'))
    assert.equal(
      iconProblemOf('logo.svg', ELEVENLABS, 'plugins/x'),
      'plugins/x: icon file logo.svg is missing'
    )
    assert.isUndefined(iconProblemOf(undefined, ELEVENLABS, 'plugins/x'))
  })
})
