/*
|--------------------------------------------------------------------------
| Builds the browser suite's assets unless the build is fresh (npm run test:assets)
|--------------------------------------------------------------------------
|
| What `npm test` does before its suites start (docs/testing.md, "Assets in tests"), on its
| own: CI builds once, then runs the suites on each database.
*/
import { prepareTestAssets } from '../tests/test_assets.js'

process.env.TEST_ASSETS = 'build'
prepareTestAssets({ browserSuite: true })
