import { test } from '@japa/runner'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import react from '@vitejs/plugin-react'
import { build as viteBuild, type Rollup } from 'vite'
import app from '@adonisjs/core/services/app'
import aceKernel from '@adonisjs/core/services/ace'
import { CreateBot } from '#actions/bots/create_bot'
import { findPluginPackages } from '#plugins/registry'
import { forgetPluginRegistry, pluginRegistry } from '#services/plugin_registry'
import { createUser, firstWorkspaceOf } from '#tests/helpers'
import PluginsList from '../../commands/plugins_list.js'
import { appResolve } from '../../vite/app_resolve.js'
import { flowcraftPlugins } from '../../vite/flowcraft_plugins.js'

const exec = promisify(execFile)

/**
 * The SDK as a package (docs/plugins.md, "A plugin package"), the author's path end to end:
 * packages/sdk is packed with `npm pack`, `make:plugin --package` scaffolds a plugin package
 * in a temporary folder outside the app, that folder installs its own dependencies (the packed
 * SDK, TypeScript) and passes its tests with no app, `npm pack` makes its tarball,
 * `npm install <tarball>` installs it (in a stand-in of the app's folder), and the app lists it
 * in plugins:list and in both editors: every command of that section of docs/plugins.md. Slow (two npm installs from the registry): it runs once, on the SQLite pass.
 */
/** A plugin file using the typed entry points of the helpers the app implements. */
const USES_SDK = `import type { Runner } from '@flowcraft/sdk/plugin'
import {
  chatCompletionFields,
  chatCompletionModule,
  createChatCompletion,
  runAgent,
  type AgentRunResult,
  type ChatCompletion,
  type ChatModelFactory,
  type OpenAiEndpoint,
} from '@flowcraft/sdk/ai'
import {
  checkDatabaseHost,
  sqlActions,
  sqlIdentifier,
  sqlRunners,
  workspaceSqliteFile,
  type SqlTarget,
} from '@flowcraft/sdk/data'
import { callGoogle, googleOAuthCredentials, type GoogleRequest } from '@flowcraft/sdk/google'
import { httpRequestFields, httpRequestRunner, type HttpResponseSummary } from '@flowcraft/sdk/http'
import { pairsOf, type N8nConverter } from '@flowcraft/sdk/n8n'
import { oauthRequest, type OAuthProvider } from '@flowcraft/sdk/oauth'
import { readPath, substituteVariables, type SurfaceRunner } from '@flowcraft/sdk/runner'
import { registerAppPort } from '@flowcraft/sdk/testing'
import {
  AI_CREDIT_LIMIT_EXCEEDED_TEXT,
  plainTextToRichText,
  richTextToMarkdown,
  type ChatReply,
  type ChatReplyMessage,
  type TextMessage,
} from '@flowcraft/sdk/chat'
import { choiceAnswer, valuesOf, type Choice } from '@flowcraft/sdk/inputs'
import { documentKindOf, extractText, type ExtractedText } from '@flowcraft/sdk/documents'
import {
  formatKnowledgeHits,
  searchKnowledge,
  type KnowledgeHit,
  type KnowledgeLookup,
} from '@flowcraft/sdk/knowledge'
import { DEFAULT_LOOP_MAX_ITERATIONS, loopMaxIterations } from '@flowcraft/sdk/loops'
import { sendEmail, type EmailMessage, type EmailTransport } from '@flowcraft/sdk/mail'
import {
  openPluginSession,
  SessionCredentialError,
  type PluginCallback,
} from '@flowcraft/sdk/sessions'
import { runWorkflowForPlugin, type WorkflowCallOutcome } from '@flowcraft/sdk/workflows'
import { callSlack, SLACK_DEFAULT_BASE_URL } from '@flowcraft/sdk/slack'
import { slackUserLimit } from '@flowcraft/sdk/slack_users'
import { callTelegram, TELEGRAM_DEFAULT_BASE_URL } from '@flowcraft/sdk/telegram'

export const webhookFields = httpRequestFields({ urlPlaceholder: 'https://hooks.example.test/' })
export const postWebhook = httpRequestRunner('Example webhook')
export const summary: HttpResponseSummary = { statusCode: 200, data: null }
export const googleCredentials = googleOAuthCredentials('https://sheets.example.test')

export const chatModel: ChatModelFactory = ({ credentials }) => ({
  endpoint: { baseUrl: String(credentials.baseUrl), apiKey: String(credentials.apiKey) },
  model: 'small',
})

export async function ask(context: Parameters<Runner>[0]): Promise<string> {
  const endpoint: OpenAiEndpoint = { baseUrl: 'https://llm.example.test/v1', apiKey: 'key' }
  const request = { model: 'small', messages: [{ role: 'user' as const, content: 'Hi' }] }
  const answer: ChatCompletion = await createChatCompletion(context.http, endpoint, request)
  const content = answer.choices[0]?.message.content
  return typeof content === 'string' ? content : ''
}

export async function reach(context: Parameters<Runner>[0]) {
  const host: string = await checkDatabaseHost('db.example.test')
  const file: string = workspaceSqliteFile(context.workspaceId, 'notes')
  const query: GoogleRequest = { query: { range: 'A1:B2' } }
  const rows = await callGoogle<{ values: string[][] }>({}, 'Sheets', 'https://x.test', query, context)
  const provider: OAuthProvider = { name: 'Example', tokenUrl: 'https://auth.example.test/token' }
  const response: Response = await oauthRequest(provider, {}, 'https://x.test', {}, context)
  return { host, file, rows: rows.values.length, status: response.status }
}

export const fromN8n: N8nConverter = (node, tools) => ({
  options: { headers: pairsOf(node.parameters?.headers, tools.text) },
})

// The app's own AI plugins are built from these: a package builds the same blocks.
export const chatOptions = chatCompletionFields({ defaultModel: 'small' })
export const chat = chatCompletionModule({
  endpoint: (credentials) => ({ baseUrl: 'https://llm.example.test/v1', apiKey: String(credentials.apiKey) }),
})
export async function agent(context: Parameters<Runner>[0]): Promise<AgentRunResult> {
  const endpoint: OpenAiEndpoint = { baseUrl: 'https://llm.example.test/v1', apiKey: 'key' }
  return runAgent({ http: context.http, ai: context.ai, endpoint, model: 'small', userQuery: 'Hi', tools: [] })
}

// The SQL plugins' actions and runners (knex is needed only when a pool is made).
export const sqlOptions = sqlActions('INTEGER')
export const table: string = sqlIdentifier('notes', 'table')
export const sql = sqlRunners('sqlite', (context): SqlTarget => ({
  engine: 'sqlite',
  url: workspaceSqliteFile(context.workspaceId, 'notes'),
  allowInternal: false,
}))

// The chat's messages and rich text, as a bubble's runner returns them (also on /runner).
export const greeting: TextMessage = {
  id: 'm1',
  type: 'text',
  content: { type: 'richText', richText: plainTextToRichText('Hello') },
}
export const reply: ChatReply = { messages: [greeting], logs: [{ status: 'info', description: 'ok' }] }
export const greetingText: string =
  greeting.content.type === 'richText' ? richTextToMarkdown(greeting.content.richText) : ''
export const creditText: string = AI_CREDIT_LIMIT_EXCEEDED_TEXT
export const echo: SurfaceRunner = ({ options }) => {
  const markdown = substituteVariables(String(options.text), [])
  const message: ChatReplyMessage = { id: 'm2', type: 'text', content: { type: 'markdown', markdown } }
  return { messages: [message] }
}
export const city: unknown = readPath({ city: 'Paris' }, 'city')

// Choices, documents, knowledge, loops, mail, sessions, workflows and the two chat services.
export const choices: Choice[] = [{ item: { id: 'i1' }, label: 'Yes', keys: ['yes'] }]
export const answer = choiceAnswer('yes', choices, false)
export const listed: string[] = valuesOf('["a","b"]')
export const kind = documentKindOf(new Uint8Array([37, 80, 68, 70, 45]), { filename: 'a.pdf' })
export async function readDocument(data: Uint8Array): Promise<ExtractedText> {
  return extractText(data, { filename: 'notes.txt' })
}
export async function lookUp(context: Parameters<Runner>[0]): Promise<string> {
  const found: KnowledgeLookup = await searchKnowledge({
    workspaceId: context.workspaceId ?? '',
    storeId: 's1',
    query: 'refunds',
    ai: context.ai,
  })
  const hits: KnowledgeHit[] = found.ok ? found.hits : []
  return formatKnowledgeHits(hits)
}
export const loopBound: number = Math.min(loopMaxIterations(), DEFAULT_LOOP_MAX_ITERATIONS)
export async function mail(): Promise<EmailTransport> {
  const message: EmailMessage = { to: ['ada@example.test'], subject: 'Hi', text: 'Hello' }
  return (await sendEmail(message)).transport
}
export async function session(context: Parameters<Runner>[0]): Promise<string> {
  const opened = await openPluginSession({ pluginId: 'x', workspaceId: 'w1', state: {} })
  const call = { workflowId: 'wf1', input: {}, signal: context.signal }
  const outcome: WorkflowCallOutcome = await runWorkflowForPlugin(call)
  return outcome.ok ? opened.id : new SessionCredentialError('X').message
}
export const onCallback: PluginCallback = () => ({ status: 200, body: 'ok' })
export async function notify(context: Parameters<Runner>[0]): Promise<number> {
  await callSlack(context.credentials, 'chat.postMessage', context, { channel: 'C1', text: 'Hi' })
  await callTelegram(context.credentials, 'sendMessage', { chat_id: 1, text: 'Hi' }, context)
  return slackUserLimit() + SLACK_DEFAULT_BASE_URL.length + TELEGRAM_DEFAULT_BASE_URL.length
}
export const undoPort: () => void = registerAppPort({})

// @ts-expect-error an endpoint needs its API key
export const keyless: OpenAiEndpoint = { baseUrl: 'https://llm.example.test/v1' }
// @ts-expect-error Google requests take a query object, not a string
export const badQuery: GoogleRequest = { query: 'range=A1' }
// @ts-expect-error a chat message is one of the bubbles, not any object
export const badMessage: ChatReplyMessage = { id: 'm3', type: 'text', content: { type: 'html' } }
// @ts-expect-error a mail has recipients
export const noRecipients: EmailMessage = { subject: 'Hi', text: 'Hello' }
`

/**
 * A chat input (viewer.tsx) built from the parts `@flowcraft/sdk/viewer` declares: the app
 * provides them, so the package only type-checks against them. Wrong uses are refused.
 */
const USES_VIEWER = `import { useState } from 'react'
import {
  ChatApiError,
  FilterBox,
  InputError,
  InputRow,
  SendButton,
  TextFieldInput,
  chatErrorText,
  cn,
  normalizeSearch,
  optionFlag,
  optionText,
  useAutoFocus,
  useChoiceSelection,
  type ChatInputProps,
  type Item,
} from '@flowcraft/sdk/viewer'

/** The block's items to pick from, filtered; a plain text field when it has none. */
export default function PickInput(props: ChatInputProps) {
  const { input, disabled, onSubmit } = props
  const [filter, setFilter] = useState('')
  const [error, setError] = useState<string>()
  const send = useAutoFocus<HTMLButtonElement>()
  const items: Item[] = input.items ?? []
  const selection = useChoiceSelection({
    entries: items,
    valueOf: (item) => item.title,
    multiple: optionFlag(input.options, 'isMultipleChoice') === true,
    disabled,
    onSubmit,
  })
  if (items.length === 0) return <TextFieldInput {...props} kind="text" />
  const shown = items.filter((item) => normalizeSearch(item.title ?? '').includes(normalizeSearch(filter)))
  const attach = async (file: File) => {
    try {
      onSubmit({ text: file.name, attachedFileUrls: [await props.upload(file)] })
    } catch (caught) {
      setError(caught instanceof ChatApiError && caught.status === 413 ? 'Too large' : chatErrorText(caught, 'Not sent'))
    }
  }
  return (
    <InputRow wide>
      <FilterBox value={filter} onChange={setFilter} placeholder={optionText(input.options, 'placeholder') ?? 'Search'} />
      {shown.map((item) => (
        <button key={item.id} className={cn('choice', selection.selected.has(item.id) && 'chosen')} onClick={() => selection.choose(item.id)}>
          {item.title}
        </button>
      ))}
      <input type="file" onChange={(event) => event.target.files?.[0] && attach(event.target.files[0])} />
      <SendButton ref={send} type="button" disabled={disabled} onClick={selection.submitSelection} />
      <InputError>{error}</InputError>
    </InputRow>
  )
}

// @ts-expect-error an answer is an object with its text, not a string
export const badAnswer = (props: ChatInputProps) => props.onSubmit('yes')
// @ts-expect-error option readers take the options and a path
export const noPath = optionText({})
`

/** A custom form using the parts `@flowcraft/sdk/forms` declares, and wrong uses of them. */
const USES_FORMS = `import {
  Button,
  HttpError,
  PluginForm,
  jsonFetch,
  useBlockTest,
  type CustomFormProps,
  type FormField,
} from '@flowcraft/sdk/forms'

export function LookupForm(props: CustomFormProps) {
  const test = useBlockTest('lookup', 'The test failed')
  const fields: FormField[] = props.fields.filter((field) => field.kind !== 'variable')
  const lookup = async () => {
    try {
      const me = await jsonFetch<{ name: string }>('/api/v1/me')
      props.onChange({ ...props.value, owner: me.name })
    } catch (error) {
      if (!(error instanceof HttpError && error.status === 401)) throw error
    }
  }
  return (
    <div>
      <PluginForm {...props} fields={fields} />
      <Button variant="secondary" size="sm" onClick={lookup} disabled={props.readOnly}>
        Look up
      </Button>
      {test.botId && <Button onClick={() => test.run(props.value ?? {}, {})}>Test</Button>}
      {test.outcome?.logs.map((log, index) => <p key={index}>{log.description}</p>)}
    </div>
  )
}

// @ts-expect-error a form's onChange takes the options record
export const badChange = (props: CustomFormProps) => props.onChange('owner')
// @ts-expect-error the editor's button has no such variant
export const badVariant = <Button variant="huge" />
`

/**
 * Run in the package's folder with plain Node: the AI clients work with no app (here against
 * a stand-in HTTP client) and the data helpers load without knex; a helper of the app's state
 * (knowledge stores) refuses without it, then answers from a test's stand-in until its undo.
 */
const OUTSIDE_APP = `
import { knowledgeStoresOf, listModels } from '@flowcraft/sdk/ai'
import { sqlIdentifier } from '@flowcraft/sdk/data'
import { registerAppPort } from '@flowcraft/sdk/testing'
const http = { request: async () => Response.json({ data: [{ id: 'small' }] }) }
const listed = await listModels(http, { baseUrl: 'https://llm.example.test/v1', apiKey: 'key' })
let refused = false
try {
  await knowledgeStoresOf('w1')
} catch (error) {
  refused = /no app has registered its "ai" helpers/.test(error.message)
}
const undo = registerAppPort({ ai: { knowledgeStoresOf: async () => [{ value: 's1', label: 'Docs' }] } })
const stores = await knowledgeStoresOf('w1')
undo()
const afterUndo = await knowledgeStoresOf('w1').then(
  () => false,
  () => true
)
const table = sqlIdentifier(' notes ', 'table')
console.log(JSON.stringify({ listed, refused, stores, afterUndo, table }))
`

test.group('SDK package', () => {
  test('a package scaffolded against the packed SDK builds, passes its tests and loads in the app', async ({
    assert,
    client,
    cleanup,
  }) => {
    const root = await mkdtemp(join(tmpdir(), 'flowcraft-sdk-package-'))
    cleanup(() => rm(root, { recursive: true, force: true }))
    const id = `sdk-check-${process.pid}`
    const name = `flowcraft-plugin-${id}`
    const folder = join(root, name)
    const timeout = 600_000
    // A failing tool's report is on its output: show it, not only its exit code.
    const run = async (command: string, args: string[], cwd: string) => {
      try {
        return await exec(command, args, { cwd, timeout, env: { ...process.env, NODE_ENV: '' } })
      } catch (error: any) {
        throw new Error(`${command} ${args.join(' ')} failed:\n${error.stdout}${error.stderr}`)
      }
    }
    const npm = (args: string[], cwd: string) => run('npm', args, cwd)
    const ace = (args: string[]) =>
      run(process.execPath, ['--no-node-snapshot', 'ace.js', ...args], app.makePath())
    const lastLine = (text: string) => text.trim().split('\n').at(-1)!.trim()

    // 1. The SDK, packed as it would be published (prepack builds dist/ with its types).
    const packed = await npm(['pack', '--pack-destination', root], app.makePath('packages/sdk'))
    const sdkTarball = join(root, lastLine(packed.stdout))
    const listing = await run('tar', ['tzf', sdkTarball], root)
    const entries = [
      'plugin',
      'runner',
      'ai',
      'data',
      'google',
      'http',
      'n8n',
      'oauth',
      'inputs',
      'slack',
      'slack_users',
      'telegram',
      'knowledge',
      'sessions',
      'workflows',
      'mail',
      'loops',
      'documents',
      'chat',
    ]
    // The shared plugin code the entries export travels with its types.
    const modules = [
      'testing/index',
      'ai/openai_compatible',
      'ai/agent',
      'ai/chat_fields',
      'data/sql',
      'data/sql_runners',
      'data/sql_fields',
    ]
    for (const file of [...entries, ...modules].map((entry) => `dist/${entry}.d.ts`))
      assert.include(listing.stdout, `package/${file}`)
    // Nothing of the app travels with it.
    assert.notMatch(listing.stdout, /package\/(src|tests|app)\//)

    // 2. The plugin package, outside the app.
    await ace([
      'make:plugin',
      id,
      '--serves',
      'bot,workflow',
      '--credentials',
      '--form',
      '--package',
      folder,
      '--sdk',
      sdkTarball,
    ])
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8'))
    assert.equal(manifest.devDependencies['@flowcraft/sdk'], `file:${sdkTarball}`)
    // Its form is compiled against React's types and rendered by the app's React.
    assert.equal(manifest.devDependencies['@types/react'], '^19.1.10')
    assert.deepEqual(manifest.peerDependencies, { react: '^19.0.0' })
    const locale = JSON.parse(await readFile(join(folder, 'src/locales/en.json'), 'utf8'))
    assert.equal(locale.credentials.apiKey.label, 'API key')

    // 3. Its own dependencies only, and its tests with no app.
    await npm(['install', '--no-audit', '--no-fund'], folder)
    assert.isFalse(existsSync(join(folder, 'node_modules/@adonisjs')))

    // The helpers' entry points (docs/plugins.md, "The app's SDK modules and the package")
    // type-check from outside: a file using each one builds with the package, and a wrong
    // use is refused (were they untyped, the expected errors would not come and tsc fails).
    await writeFile(join(folder, 'src/uses_sdk.ts'), USES_SDK)
    // The browser parts the app provides (docs/plugins.md, "Browser files of a package"): a
    // chat input and a form type-check against the package's declarations of them.
    await writeFile(join(folder, 'src/viewer.tsx'), USES_VIEWER)
    await writeFile(join(folder, 'src/uses_forms.tsx'), USES_FORMS)
    await run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], folder)
    // That file reaches every entry, and the entries are all the package exports: a subpath
    // left out of the build or of "exports" fails the type-check above, and a new one must
    // be added here.
    const sdkManifest = JSON.parse(
      await readFile(join(folder, 'node_modules/@flowcraft/sdk/package.json'), 'utf8')
    )
    assert.sameMembers(
      Object.keys(sdkManifest.exports).filter((key) => key !== './package.json'),
      [...entries, 'testing', 'forms', 'viewer'].map((entry) => `./${entry}`)
    )
    for (const entry of [...entries, 'testing'])
      assert.include(USES_SDK, `from '@flowcraft/sdk/${entry}'`, entry)
    // Outside the app there is nothing to run: the package declares these modules only.
    const browserOnly = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import('@flowcraft/sdk/viewer').catch((e) => console.log(e.code))`,
      ],
      folder
    )
    assert.equal(lastLine(browserOnly.stdout), 'ERR_PACKAGE_PATH_NOT_EXPORTED')
    // Outside the app the helpers say so; a test's stand-in of the app's part answers instead.
    const outside = await run(process.execPath, ['--input-type=module', '-e', OUTSIDE_APP], folder)
    assert.deepEqual(JSON.parse(lastLine(outside.stdout)), {
      listed: [{ id: 'small' }],
      refused: true,
      stores: [{ value: 's1', label: 'Docs' }],
      afterUndo: true,
      table: 'notes',
    })
    const tested = await npm(['test'], folder)
    assert.match(tested.stdout, /# pass 4/)
    assert.match(tested.stdout, /# fail 0/)

    // After a manifest change the author regenerates the locale from the app; it agrees now.
    await ace(['plugins:locales', '--check', join(folder, 'src')])
    const regenerated = await ace(['plugins:locales', join(folder, 'src')])
    assert.include(regenerated.stdout, '1 plugins, 0 written')

    // 4. Its tarball (what `npm publish` sends), installed with `npm install <tarball>`.
    const built = await npm(['pack'], folder)
    const pluginTarball = join(folder, lastLine(built.stdout))
    const published = await npm(['publish', '--dry-run'], folder)
    assert.include(published.stdout, `+ ${name}@0.1.0`)
    // The docs' `npm install <tarball>`, run in a stand-in of the app's folder (a package.json
    // of its own): the app's own dependencies must not change. The app finds it there as a
    // dependency declaring flowcraft.plugin, as it would in its own folder.
    const standIn = join(root, 'app')
    await mkdir(standIn)
    await writeFile(
      join(standIn, 'package.json'),
      JSON.stringify({ name: 'flowcraft-app-stand-in', private: true })
    )
    await npm(['install', '--no-audit', '--no-fund', pluginTarball], standIn)
    const found = await findPluginPackages(standIn)
    assert.deepEqual(found.problems, [])
    assert.deepEqual(
      found.packages.map((p) => `${p.name}@${p.version}`),
      [`${name}@0.1.0`]
    )
    const link = app.makePath('node_modules', name)
    if (await lstat(link).catch(() => null)) await rm(link, { recursive: true, force: true })
    await symlink(join(standIn, 'node_modules', name), link, 'dir')
    const before = app.config.get<string[]>('plugins.packages', [])
    app.config.set('plugins.packages', [...before, name])
    forgetPluginRegistry()
    cleanup(async () => {
      await rm(link, { force: true })
      app.config.set('plugins.packages', before)
      forgetPluginRegistry()
    })

    const registry = await pluginRegistry()
    assert.deepEqual(registry.problems(), [])
    assert.equal(registry.sourceOf(id)?.kind, 'package')
    assert.isFunction(await registry.runnerOf(id))

    // The docs' `node ace plugins:list`, in this process (where the package is listed).
    const list = await aceKernel.create(PluginsList, [])
    list.ui.switchMode('raw')
    try {
      await list.exec()
      const lines = list.ui.logger.getLogs().map((log) => log.message)
      const row = lines.find((line) => line.includes(id))
      assert.include(row ?? lines.join('\n'), `package ${name}@0.1.0`)
    } finally {
      list.ui.switchMode('normal')
    }

    // 5. The app's bundle takes its browser files: the generated modules name the compiled
    // form and viewer, and a build with the app's resolution gives their @flowcraft/sdk/forms
    // and /viewer the app's own parts, and React (or, on the chat page, Preact) the app's copy,
    // though the package lies outside the app with a React of its own beside it (npm installed
    // the peer in the stand-in).
    const { packages: inApp } = await findPluginPackages(app.makePath(), [name])
    const browser = dirname(inApp.find((pkg) => pkg.name === name)!.entry)
    const generated = flowcraftPlugins({ root: app.makePath(), packages: [name] }) as any
    const codeOf = async (module: string) => generated.load(generated.resolveId(module))
    const form = join(browser, 'form.js')
    const viewer = join(browser, 'viewer.js')
    assert.include(
      await codeOf('virtual:flowcraft/plugins'),
      `form: () => import(${JSON.stringify(form)})`
    )
    assert.include(await codeOf('virtual:flowcraft/viewers'), `import(${JSON.stringify(viewer)})`)
    assert.isTrue(existsSync(join(standIn, 'node_modules/react/package.json')))
    // The app's packages as the bundler names them (their real path: node_modules may be a link).
    const appModules = await realpath(app.makePath('node_modules'))
    const bundle = async (bundleOf: 'dashboard' | 'visitor', input: Record<string, string>) => {
      const output = (await viteBuild({
        configFile: false,
        root: app.makePath(),
        logLevel: 'silent',
        resolve: appResolve(app.makePath(), bundleOf),
        plugins: [react()],
        // The app imports a plugin's files lazily and uses their exports: keep an entry's exports
        // here too, or the build would drop the component it is meant to show.
        build: { write: false, rollupOptions: { input, preserveEntrySignatures: 'exports-only' } },
      })) as Rollup.RollupOutput
      const chunks = output.output.filter((part) => part.type === 'chunk')
      for (const chunk of chunks) assert.notInclude(chunk.code, '@flowcraft/sdk', chunk.fileName)
      // Module ids without rollup's marks: `\0` for its helpers, `?commonjs-...` queries.
      const ids = chunks.flatMap((chunk) => chunk.moduleIds)
      return [...new Set(ids.map((module) => module.replace(/^\0/, '').replace(/\?.*$/, '')))]
    }
    const dashboard = await bundle('dashboard', { form, viewer })
    assert.includeMembers(dashboard, [
      app.makePath('resources/features/plugin_form/block_test_form.tsx'),
      app.makePath('resources/features/viewer/inputs/text_field.tsx'),
      join(appModules, 'react/jsx-runtime.js'),
    ])
    const visitor = await bundle('visitor', { viewer })
    assert.include(visitor, app.makePath('resources/features/viewer/inputs/text_field.tsx'))
    assert.include(visitor, join(appModules, 'preact/compat/dist/compat.mjs'))
    assert.notInclude(visitor, join(appModules, 'react/jsx-runtime.js'))
    for (const bundled of [dashboard, visitor]) {
      const reacts = bundled.filter((module) =>
        /\/node_modules\/(react|react-dom|preact)\//.test(module)
      )
      assert.isNotEmpty(reacts)
      assert.deepEqual(
        reacts.filter((module) => !module.startsWith(`${appModules}/`)),
        []
      )
    }

    // 6. Both editors list it.
    const user = await createUser()
    const workspace = await firstWorkspaceOf(user)
    const bot = await new CreateBot().handle(user, workspace, { name: 'Package check' })
    const botPage = await client.get(`/bots/${bot.id}/edit`).loginAs(user).withInertia()
    botPage.assertStatus(200)
    const inBots = (botPage.inertiaProps.plugins as any[]).find((p) => p.id === id)
    assert.equal(inBots?.category, 'integration')
    const api = await client
      .get(`/api/v1/plugins?workspaceId=${workspace.id}&surface=workflow`)
      .loginAs(user)
    api.assertStatus(200)
    const inWorkflows = api.body().plugins.find((p: any) => p.id === id)
    assert.equal(inWorkflows?.category, 'action')
  })
    .skip(
      process.env.DB_CONNECTION !== undefined && process.env.DB_CONNECTION !== 'sqlite',
      'the package path does not depend on the database: checked on the SQLite pass'
    )
    .timeout(1_800_000)
})
