import { test } from '@japa/runner'
import { mkdtemp, mkdir, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { assetsFingerprint, runsBrowserSuite } from '#tests/test_assets'

const SUITES = ['unit', 'functional', 'browser']

test.group('Test assets (docs/testing.md, "Assets in tests")', () => {
  test('the browser suite runs when named, or when no suite is and files may be browser tests', ({
    assert,
  }) => {
    assert.isTrue(runsBrowserSuite([], SUITES))
    assert.isTrue(runsBrowserSuite(['browser'], SUITES))
    assert.isTrue(runsBrowserSuite(['unit', 'browser'], SUITES))
    assert.isFalse(runsBrowserSuite(['unit', 'functional'], SUITES))
    assert.isFalse(runsBrowserSuite(['functional', '--files', 'tests/browser/x.spec.ts'], SUITES))
    // `ace test` passes repeated --files joined with commas.
    assert.isTrue(
      runsBrowserSuite(['--files', 'tests/functional/a.spec.ts,tests/browser/b.spec.ts'], SUITES)
    )
    assert.isFalse(
      runsBrowserSuite(['--files', 'tests/functional/a.spec.ts,plugins/x/x.spec.ts'], SUITES)
    )
    assert.isTrue(runsBrowserSuite(['--files', 'editor'], SUITES))
  })

  test('the fingerprint changes with an input file added, edited or removed, not elsewhere', async ({
    assert,
    cleanup,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-assets-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    await mkdir(join(root, 'resources'))
    await mkdir(join(root, 'app/models'), { recursive: true })
    await writeFile(join(root, 'vite.config.ts'), 'export default {}')
    await writeFile(join(root, 'resources/app.tsx'), 'one')
    const first = assetsFingerprint(root)
    assert.equal(assetsFingerprint(root), first)

    await writeFile(join(root, 'app/models/user.ts'), 'server only')
    assert.equal(assetsFingerprint(root), first)

    await writeFile(join(root, 'resources/app.tsx'), 'edited')
    const edited = assetsFingerprint(root)
    assert.notEqual(edited, first)
    await utimes(join(root, 'resources/app.tsx'), new Date(), new Date(Date.now() + 5000))
    assert.notEqual(assetsFingerprint(root), edited)

    await mkdir(join(root, 'plugins/x'), { recursive: true })
    await writeFile(join(root, 'plugins/x/form.tsx'), 'form')
    const added = assetsFingerprint(root)
    await rm(join(root, 'plugins/x/form.tsx'))
    assert.notEqual(assetsFingerprint(root), added)
  })
})
