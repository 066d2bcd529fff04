import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'

test.group('OpenAPI', () => {
  test('every /api/v1 route is documented, and /api/docs renders', async ({ client, assert }) => {
    const response = await client.get('/api/docs/openapi.json')
    response.assertStatus(200)
    const doc = response.body()
    assert.equal(doc.openapi, '3.1.0')

    const routes = router.toJSON().root.filter((r) => r.pattern.startsWith('/api/v1/'))
    for (const route of routes) {
      const path = route.pattern.replace(/:(\w+)/g, '{$1}')
      for (const method of route.methods.filter((m) => m !== 'HEAD')) {
        assert.property(
          doc.paths[path] ?? {},
          method.toLowerCase(),
          `${method} ${path} is not documented`
        )
      }
    }

    // The Typebot-compatible aliases are described with that API's shapes.
    assert.property(doc.paths['/api/v1/typebots/{typebotId}/results'], 'delete')
    assert.property(doc.paths['/api/v1/workspaces'], 'post')

    const page = await client.get('/api/docs').header('accept', 'text/html')
    page.assertStatus(200)
    assert.include(page.text(), '/api/v1/bots/{id}/publish')
  })
})
