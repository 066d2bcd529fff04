/**
 * The files `node ace make:plugin` writes (commands/make_plugin.ts). The scaffold is a
 * working plugin: it calls an HTTP API (with an API key when it has credentials), saves
 * the answer in a variable on bots and passes it on as the node's output in workflows, and
 * its test runs it against a local stand-in of that API. The generated code is
 * prettier-formatted and lint-clean; tests/functional/make_plugin.spec.ts checks both.
 */
export interface Scaffold {
  id: string
  name: string
  slug: string
  category: string
  scope: string
  serves: ('bot' | 'workflow')[]
  credentials: boolean
  /** Writes form.tsx: the editor's generated form plus a Test button (`make:plugin --form`). */
  form?: boolean
  /**
   * Set for a plugin package (`make:plugin --package`): it imports the SDK as
   * `@flowcraft/sdk/*` and its test runs with node:test, outside the app.
   */
  package?: {
    name: string
    /** The @flowcraft/sdk dependency: a version range or a tarball. */
    sdk: string
  }
}

/** How a scaffold names an SDK module: `#sdk/x` in plugins/, `@flowcraft/sdk/x` in a package. */
const sdk = (s: Scaffold, module: string) => q(`${s.package ? '@flowcraft/sdk' : '#sdk'}/${module}`)

/** The command that runs a plugin folder's tests; the docs and the "next" hint give this one. */
export function folderTestCommand(slug: string) {
  return `node --no-node-snapshot ace.js test unit --files plugins/${slug}/runner.spec.ts`
}

/** How many tests testSource writes: one per surface, a refused call, the key check. */
export function testCountOf(s: Scaffold) {
  return s.serves.length + 1 + (s.credentials ? 1 : 0)
}

const q = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
const lines = (...parts: (string | false)[]) => parts.filter((p) => p !== false).join('\n')

export function manifestSource(s: Scaffold) {
  const serves = s.serves.map(q).join(', ')
  return lines(
    `import { definePlugin, field } from ${sdk(s, 'plugin')}`,
    ``,
    s.credentials
      ? `/** The address of the service; a credential's Base URL overrides it (a local stand-in in tests). */`
      : `/** The address of the service; the block's Base URL overrides it (a local stand-in in tests). */`,
    `export const DEFAULT_BASE_URL = 'https://api.example.com'`,
    ``,
    `/**`,
    ` * ${s.name}: asks the service's /v1/search endpoint and keeps the answer. Say here what the`,
    ` * block does for a builder, and why they would use it.`,
    ` */`,
    `export default definePlugin({`,
    `  id: ${q(s.id)},`,
    `  name: ${q(s.name)},`,
    `  fullName: ${q(s.name)},`,
    `  tags: [], // words builders may search for that are not in the name`,
    `  description: ${q(`Ask ${s.name} and keep its answer`)},`,
    `  category: ${q(s.category)},`,
    `  scope: ${q(s.scope)},`,
    `  icon: 'plug',`,
    `  version: 1,`,
    `  serves: [${serves}],`,
    s.credentials &&
      lines(
        `  credentials: {`,
        `    apiKey: field.string({ label: 'API key', secret: true, required: true }),`,
        `    baseUrl: field.string({`,
        `      label: 'Base URL',`,
        `      defaultValue: DEFAULT_BASE_URL,`,
        `      helperText: 'Change it only to reach another server speaking the same API.',`,
        `    }),`,
        `  },`
      ),
    `  options: {`,
    s.credentials &&
      lines(
        `    credentialsId: field.credentials({`,
        `      label: 'Account',`,
        `      credentialType: ${q(s.id)},`,
        `      required: true,`,
        `    }),`
      ),
    !s.credentials &&
      `    baseUrl: field.string({ label: 'Base URL', defaultValue: DEFAULT_BASE_URL }),`,
    `    query: field.string({ label: 'Query', allowVariables: true, required: true }),`,
    `    saveResultInVariableId: field.variable({ label: 'Save the answer in', writes: true }),`,
    `  },`,
    `})`,
    ``
  )
}

export function runnerSource(s: Scaffold) {
  const base = s.credentials ? 'credentials.baseUrl' : 'options.baseUrl'
  return lines(
    `import type { Runner } from ${sdk(s, 'plugin')}`,
    `import { toVariableValue } from ${sdk(s, 'runner')}`,
    `import plugin, { DEFAULT_BASE_URL } from './index.js'`,
    ``,
    `/**`,
    ` * GET {baseUrl}/v1/search?q={query}${s.credentials ? ' with the API key as a bearer token' : ''}. A bot saves the`,
    ` * answer in a variable; a workflow node outputs it. Failures are error logs: the chat goes on,`,
    ` * a workflow node fails (its retries apply).`,
    ` */`,
    runnerHead(s),
    `  const query = options.query?.trim()`,
    `  if (!query) return void logger.error(\`\${plugin.name}: the query is empty\`)`,
    s.credentials &&
      lines(
        `  const apiKey = credentials.apiKey?.trim()`,
        `  if (!apiKey) return void logger.error(\`\${plugin.name}: no API key\`)`
      ),
    `  const baseUrl = (${base}?.trim() || DEFAULT_BASE_URL).replace(/\\/+$/, '')`,
    `  const response = await http.request(\`\${baseUrl}/v1/search?q=\${encodeURIComponent(query)}\`, {`,
    s.credentials
      ? `    headers: { accept: 'application/json', authorization: \`Bearer \${apiKey}\` },`
      : `    headers: { accept: 'application/json' },`,
    `    signal,`,
    `  })`,
    `  if (!response.ok) {`,
    `    return void logger.error(\`\${plugin.name}: the service answered \${response.status}\`, {`,
    `      body: await response.text(),`,
    `    })`,
    `  }`,
    `  const answer: unknown = await response.json()`,
    `  variables.set(options.saveResultInVariableId, toVariableValue(answer))`,
    `  logger.success(\`\${plugin.name}: answer received\`)`,
    `  return { output: answer }`,
    `}`,
    ``
  )
}

/** The runner's first line, broken over lines only when prettier would break it. */
function runnerHead(s: Scaffold) {
  const names = [
    'options',
    ...(s.credentials ? ['credentials'] : []),
    'http',
    'variables',
    'logger',
    'signal',
  ]
  const oneLine = `export const run: Runner<typeof plugin> = async ({ ${names.join(', ')} }) => {`
  if (oneLine.length <= 100) return oneLine
  return lines(
    `export const run: Runner<typeof plugin> = async ({`,
    ...names.map((n) => `  ${n},`),
    `}) => {`
  )
}

/** The component's name: the slug in PascalCase ("sdk-check" gives SdkCheckForm). */
function componentName(s: Scaffold, suffix: string) {
  const words = s.slug.split(/[^a-zA-Z0-9]+/).filter(Boolean)
  const name = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')
  return /^[A-Za-z]/.test(name) ? `${name}${suffix}` : `Plugin${name}${suffix}`
}

/**
 * A custom form (docs/plugins.md, "A custom form"): the editor's generated form with, in the
 * bot editor, a Test button running the block on the server. The editor provides both parts
 * (`#sdk/forms`, `@flowcraft/sdk/forms` in a package), so the plugin ships no UI code of its own
 * until it needs some.
 */
export function formSource(s: Scaffold) {
  return lines(
    `import { BlockTestForm, type CustomFormProps } from ${sdk(s, 'forms')}`,
    ``,
    `/**`,
    ` * The block's settings in the editors: the form generated from the manifest and, in the bot`,
    ` * editor, a Test button that runs the block with the workspace's credentials and shows what`,
    ` * it would save. Change it when a setting deserves a better control than the generated one.`,
    ` */`,
    `export default function ${componentName(s, 'Form')}(props: CustomFormProps) {`,
    `  return <BlockTestForm {...props} type=${/["\\]/.test(s.id) ? `{${q(s.id)}}` : `"${s.id}"`} />`,
    `}`,
    ``
  )
}

export function credentialsSource(s: Scaffold) {
  return lines(
    `import type { CredentialsTestContext } from ${sdk(s, 'runner')}`,
    `import { DEFAULT_BASE_URL } from './index.js'`,
    ``,
    `/** The editor's Test button for ${s.name}: one authenticated call tells whether the key works. */`,
    `export async function test({ credentials, http, signal }: CredentialsTestContext) {`,
    `  const apiKey = String(credentials.apiKey ?? '').trim()`,
    `  if (!apiKey) return { ok: false, message: 'API key missing' }`,
    `  const baseUrl = (String(credentials.baseUrl ?? '').trim() || DEFAULT_BASE_URL).replace(/\\/+$/, '')`,
    `  try {`,
    `    const response = await http.request(\`\${baseUrl}/v1/search?q=ping\`, {`,
    `      headers: { accept: 'application/json', authorization: \`Bearer \${apiKey}\` },`,
    `      signal,`,
    `    })`,
    `    if (response.status === 401 || response.status === 403) {`,
    `      return { ok: false, message: \`The API key was refused (\${response.status}).\` }`,
    `    }`,
    `    if (!response.ok) return { ok: false, message: \`The service answered \${response.status}.\` }`,
    `    return { ok: true, message: 'Connected.' }`,
    `  } catch (error) {`,
    `    return { ok: false, message: (error as Error).message }`,
    `  }`,
    `}`,
    ``
  )
}

export function testSource(s: Scaffold) {
  const surfaces = s.serves
  const creds = s.credentials
  // A package's test runs outside the app with node:test; a folder's with the app's Japa.
  const japa = !s.package
  const head = (title: string) =>
    japa ? `  test('${title}', async ({ assert }) => {` : `  test('${title}', async () => {`
  const call = (surface: string, extra: string) =>
    lines(
      `    const outcome = await runPluginTest({`,
      `      folder,`,
      `      surface: '${surface}',`,
      creds
        ? `      options: { ${extra} },`
        : `      options: { ${extra}, baseUrl: service.baseUrl },`,
      creds && `      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },`,
      `      variables: [{ id: 'v1', name: 'answer' }],`,
      `    })`
    )
  const tests: string[] = []
  for (const surface of surfaces) {
    tests.push(
      lines(
        head(
          surface === 'bot'
            ? 'in a bot: saves the answer in the variable'
            : 'in a workflow: the answer is the node output'
        ),
        call(surface, `query: 'Paris', saveResultInVariableId: 'v1'`),
        `    assert.deepEqual(outcome.errors, [])`,
        surface === 'bot'
          ? `    assert.deepEqual(outcome.variablesSet, [{ id: 'v1', value: JSON.stringify(ANSWER) }])`
          : `    assert.deepEqual(outcome.output, ANSWER)`,
        `    assert.equal(service.requests[0].path, '/v1/search')`,
        `    assert.equal(service.requests[0].query, 'Paris')`,
        creds && `    assert.equal(service.requests[0].authorization, 'Bearer test-key')`,
        `  })`
      )
    )
  }
  tests.push(
    lines(
      head('a refused call is an error log and saves nothing'),
      call(surfaces[0], `query: 'fail', saveResultInVariableId: 'v1'`),
      `    assert.deepEqual(outcome.errors, [\`\${plugin.name}: the service answered 500\`])`,
      `    assert.deepEqual(outcome.variablesSet, [])`,
      `  })`
    )
  )
  if (creds) {
    tests.push(
      lines(
        head('the credential check accepts the key and refuses a wrong one'),
        `    const http = testHttp`,
        `    const signal = AbortSignal.timeout(5000)`,
        `    const good = await testCredentials({`,
        `      credentials: { apiKey: 'test-key', baseUrl: service.baseUrl },`,
        `      http,`,
        `      signal,`,
        `    })`,
        `    assert.equal(good.ok, true)`,
        `    const bad = await testCredentials({`,
        `      credentials: { apiKey: 'wrong', baseUrl: service.baseUrl },`,
        `      http,`,
        `      signal,`,
        `    })`,
        `    assert.deepEqual(bad, { ok: false, message: 'The API key was refused (401).' })`,
        `  })`
      )
    )
  }
  return lines(
    japa
      ? `import { test } from '@japa/runner'`
      : lines(
          `import assert from 'node:assert/strict'`,
          `import { afterEach, beforeEach, describe, test } from 'node:test'`
        ),
    creds
      ? `import { runPluginTest, sendJson, startStandIn, testHttp } from ${sdk(s, 'testing')}`
      : `import { runPluginTest, sendJson, startStandIn } from ${sdk(s, 'testing')}`,
    creds && `import { test as testCredentials } from './credentials.js'`,
    `import plugin from './index.js'`,
    ``,
    `const folder = new URL('./', import.meta.url)`,
    `const ANSWER = { query: 'Paris', results: [{ name: 'Paris', temperature: 12 }] }`,
    ``,
    `/** What the stand-in saw of each call. */`,
    `interface SearchCall {`,
    `  path: string`,
    `  query: string | null`,
    creds && `  authorization?: string`,
    `}`,
    ``,
    creds
      ? `/** A local stand-in of the service: answers /v1/search, refuses a wrong key and "fail". */`
      : `/** A local stand-in of the service: answers /v1/search, refuses "fail". */`,
    `async function startService() {`,
    `  return startStandIn<SearchCall>(`,
    creds ? `    ({ res, url, req }) => {` : `    ({ res, url }) => {`,
    creds &&
      lines(
        `      if (req.headers.authorization !== 'Bearer test-key') {`,
        `        return sendJson(res, 401, { error: 'unauthorized' })`,
        `      }`
      ),
    `      if (url.searchParams.get('q') === 'fail') return sendJson(res, 500, { error: 'boom' })`,
    `      sendJson(res, 200, { ...ANSWER, query: url.searchParams.get('q') })`,
    `    },`,
    `    {`,
    creds
      ? lines(
          `      record: ({ req, url }) => ({`,
          `        path: url.pathname,`,
          `        query: url.searchParams.get('q'),`,
          `        authorization: req.headers.authorization,`,
          `      }),`
        )
      : `      record: ({ url }) => ({ path: url.pathname, query: url.searchParams.get('q') }),`,
    `    }`,
    `  )`,
    `}`,
    ``,
    japa
      ? lines(
          `test.group(${q(`Plugin ${s.id}`)}, (group) => {`,
          `  let service: Awaited<ReturnType<typeof startService>>`,
          `  group.each.setup(async () => {`,
          `    service = await startService()`,
          `    return () => service.close()`,
          `  })`
        )
      : lines(
          `describe(${q(`Plugin ${s.id}`)}, () => {`,
          `  let service: Awaited<ReturnType<typeof startService>>`,
          `  beforeEach(async () => {`,
          `    service = await startService()`,
          `  })`,
          `  afterEach(() => service.close())`
        ),
    ``,
    tests.join('\n\n'),
    `})`,
    ``
  )
}

export function readmeSource(s: Scaffold) {
  const surfaces = s.serves.join(' and ')
  return lines(
    `# ${s.name} (\`${s.id}\`)`,
    ``,
    `Asks ${s.name}'s \`/v1/search\` endpoint and keeps the answer: a bot saves it in a`,
    `variable, a workflow node passes it on as its output. Describe here, for builders, what`,
    `the block is for.`,
    ``,
    `- Serves: ${surfaces}; category: ${s.category}${s.credentials ? `; credentials scope: ${s.scope}` : ''}`,
    `- Stored type: \`"${s.id}"\`, settings in \`block.options\``,
    ``,
    `## Settings`,
    ``,
    `| key | label | notes |`,
    `| --- | --- | --- |`,
    s.credentials
      ? `| \`credentialsId\` | Account | required; the ${s.name} credential |`
      : `| \`baseUrl\` | Base URL | the service's address |`,
    `| \`query\` | Query | required; {{variables}} allowed |`,
    `| \`saveResultInVariableId\` | Save the answer in | the variable that receives the answer (bots) |`,
    ``,
    s.credentials &&
      lines(
        `## Credentials`,
        ``,
        `| key | label | notes |`,
        `| --- | --- | --- |`,
        `| \`apiKey\` | API key | secret, sent as a bearer token |`,
        `| \`baseUrl\` | Base URL | default \`https://api.example.com\` |`,
        ``,
        `**Test** makes one authenticated call and says whether the key is accepted.`,
        ``
      ),
    `## Logs`,
    ``,
    `- \`${s.name}: the query is empty\`${s.credentials ? `, \`${s.name}: no API key\`` : ''}: nothing is sent.`,
    `- \`${s.name}: the service answered <status>\` (with the body): nothing is saved.`,
    ``,
    `## For plugin authors`,
    ``,
    ...(s.package
      ? [
          `- \`src/index.ts\`: the manifest (browser-safe: imports only \`@flowcraft/sdk/plugin\`).`,
          `- \`src/runner.ts\`: the server-side run; \`context.surface\` says whether a bot or a workflow runs it.`,
          s.credentials &&
            `- \`src/credentials.ts\`: the key check behind the editor's Test button.`,
          !!s.form &&
            `- \`src/form.tsx\`: the block's form in the editors (\`@flowcraft/sdk/forms\`, given by the app).`,
          `- \`src/locales/en.json\`: labels, derived from the manifest (\`node ace plugins:locales\` in the app).`,
          `- \`src/runner.test.ts\`: the tests, against a local stand-in of the service, with`,
          `  \`@flowcraft/sdk/testing\` and no app: \`npm test\`.`,
          `- \`npm pack\` makes the tarball an app installs (\`npm install <tarball>\`).`,
        ]
      : [
          `- \`index.ts\`: the manifest (browser-safe: imports only \`#sdk/plugin\`).`,
          `- \`runner.ts\`: the server-side run; \`context.surface\` says whether a bot or a workflow runs it.`,
          s.credentials && `- \`credentials.ts\`: the key check behind the editor's Test button.`,
          !!s.form && `- \`form.tsx\`: the block's form in the editors (\`#sdk/forms\`).`,
          `- \`locales/en.json\`: labels, derived from the manifest (\`node ace plugins:locales\`).`,
          `- \`runner.spec.ts\`: the tests, against a local stand-in of the service`,
          `  (\`${folderTestCommand(s.slug)}\`).`,
        ]),
    ``,
    `See docs/plugins.md.`,
    ``
  )
}

/** The package.json of a plugin package: its manifest for the app, its build and its test. */
export function packageJsonSource(s: Scaffold) {
  const manifest = {
    name: s.package!.name,
    version: '0.1.0',
    description: `Flowcraft plugin: ${s.name}`,
    type: 'module',
    license: 'MIT',
    keywords: ['flowcraft-plugin'],
    // What the app loads (docs/plugins.md, "Plugins as packages"): the compiled manifest,
    // with its runner and locales beside it.
    flowcraft: { plugin: './dist/index.js' },
    files: ['dist', 'README.md'],
    scripts: {
      // dist/ is made afresh (it is what `npm pack` ships), with the locales beside the code.
      clean: `node -e "require('fs').rmSync('dist', { recursive: true, force: true })"`,
      build: `npm run clean && tsc -p tsconfig.json && node -e "require('fs').cpSync('src/locales', 'dist/locales', { recursive: true })"`,
      test: 'npm run build && node --test dist/',
      prepack: 'npm run build',
    },
    // Only for building and testing: the app gives an installed plugin its own SDK, so an
    // installed package pulls no copy of it in (nor asks the registry for one).
    devDependencies: {
      '@flowcraft/sdk': s.package!.sdk,
      '@types/node': '^22.0.0',
      // React's types, for the browser files (form.tsx) the SDK's forms and viewer describe.
      ...(s.form ? { '@types/react': '^19.1.10' } : {}),
      'typescript': '^5.6.0',
    },
    // The compiled form imports React's JSX runtime: the app's React renders it, and its
    // bundle gives it the app's copy (vite.config.ts), so the package brings none.
    ...(s.form ? { peerDependencies: { react: '^19.0.0' } } : {}),
  }
  return JSON.stringify(manifest, null, 2) + '\n'
}

export function packageTsconfigSource() {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      // form.tsx and viewer.tsx compile to plain JavaScript: the app bundles node_modules as is.
      jsx: 'react-jsx',
      strict: true,
      declaration: true,
      rootDir: './src',
      outDir: './dist',
      skipLibCheck: true,
    },
    include: ['src/**/*.ts', 'src/**/*.tsx'],
  }
  return JSON.stringify(config, null, 2) + '\n'
}
