/**
 * The files the packed-SDK test (tests/functional/sdk_package.spec.ts) writes into a plugin
 * package outside the app: each uses the package's exported parts as an author would.
 */

/** A plugin file using the typed entry points of the helpers the app implements. */
export const USES_SDK = `import type { Runner } from '@flowcraft/sdk/plugin'
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
export const USES_VIEWER = `import { useState } from 'react'
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
export const USES_FORMS = `import {
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
export const OUTSIDE_APP = `
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
