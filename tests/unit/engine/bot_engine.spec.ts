import { test } from '@japa/runner'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { continueChat, messageText, startChat, type TurnOutput } from '#engine/bot/engine'
import type { EngineBot, EnginePorts } from '#engine/bot/ports'
import type { SessionState } from '#engine/bot/state'
import { enginePorts } from '#services/chat/engine_ports'
import { toInputAnswer } from '#actions/chat/continue_chat'
import { newId } from '#services/ids'
import { chatFixtures, toEngineBot, type TurnExpectation } from './fixtures.js'

/**
 * Runs every conversation of every chat fixture through the engine with the real plugin
 * runners (no HTTP, no database for the flow itself) and compares each turn's reply.
 */

let standIn: Server
let standInUrl = ''

function portsFor(bots: Map<string, EngineBot>, base: EnginePorts): EnginePorts {
  return {
    ...base,
    isAllowed: () => true,
    loadBot: async (botId) => bots.get(botId),
  }
}

function variablesOf(state: SessionState) {
  // The root bot (last of the queue) holds the conversation's own variables.
  const root = state.botsQueue.at(-1)!
  return Object.fromEntries(root.variables.map((v) => [v.name, v.value ?? null]))
}

function check(
  assert: any,
  output: TurnOutput,
  expect: TurnExpectation,
  resultId: string,
  where: string
) {
  const { reply, state, effects } = output
  if (expect.messages) {
    assert.deepEqual(reply.messages.map(messageText), expect.messages, `${where}: messages`)
  }
  if (expect.messageTypes) {
    assert.deepEqual(
      reply.messages.map((m) => m.type),
      expect.messageTypes,
      `${where}: message types`
    )
  }
  if ('input' in expect) {
    assert.equal(reply.input?.type ?? null, expect.input, `${where}: input`)
  }
  if (expect.itemContents) {
    assert.deepEqual(
      reply.input?.items?.map((item) => item.content),
      expect.itemContents,
      `${where}: items`
    )
  }
  const variables = variablesOf(state)
  for (const [name, value] of Object.entries(expect.variables ?? {})) {
    assert.deepEqual(variables[name], value, `${where}: variable ${name}`)
  }
  for (const [name, pattern] of Object.entries(expect.variablesMatch ?? {})) {
    assert.match(String(variables[name]), new RegExp(pattern), `${where}: variable ${name}`)
  }
  if (expect.completed !== undefined) {
    assert.equal(Boolean(state.isCompleted), expect.completed, `${where}: completed`)
  }
  for (const text of expect.logsContain ?? []) {
    assert.isTrue(
      effects.logs.some((log) => log.description.includes(text)),
      `${where}: a log contains "${text}" (logs: ${JSON.stringify(effects.logs)})`
    )
  }
  if (expect.actions) {
    assert.deepEqual(
      (reply.clientSideActions ?? []).map((a) => a.type),
      expect.actions,
      `${where}: actions`
    )
  }
  for (const [name, value] of Object.entries(expect.resultVariables ?? {})) {
    const saved = effects.results.get(resultId)?.variables ?? []
    assert.deepEqual(
      saved.find((v) => v.name === name)?.value,
      value,
      `${where}: ${name} is saved in the result`
    )
  }
}

test.group('Chat engine: fixtures', (group) => {
  group.setup(async () => {
    standIn = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk) => (body += chunk))
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://localhost')
        const city = url.searchParams.get('city')
        const echo = body ? JSON.parse(body) : {}
        response.writeHead(200, { 'Content-Type': 'application/json' })
        response.end(JSON.stringify({ temp: city === request.headers['x-test'] ? 21 : 0, echo }))
      })
    })
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve))
    standInUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`
    return () => new Promise<void>((resolve) => standIn.close(() => resolve()))
  })

  for (const fixture of chatFixtures()) {
    for (const conversation of fixture.conversations) {
      if (conversation.turns.length === 0) continue
      test(`${fixture.file}: ${conversation.name}`, async ({ assert }) => {
        const bot = toEngineBot(fixture.bot)
        const bots = new Map<string, EngineBot>([[bot.id, bot]])
        for (const linked of fixture.linkedBots) bots.set(linked.id, toEngineBot(linked))
        const ports = portsFor(bots, await enginePorts())
        const resultId = newId()
        const sessionId = newId()
        const prefilled = { ...conversation.prefilledVariables }
        if (fixture.file === 'http_request.json') prefilled.Api = standInUrl

        let output = await startChat(ports, {
          bot,
          sessionId,
          resultId,
          prefilledVariables: prefilled,
        })
        check(assert, output, conversation.turns[0].expect, resultId, 'turn 1')
        for (const [index, turn] of conversation.turns.slice(1).entries()) {
          const state = JSON.parse(JSON.stringify(output.state)) as SessionState
          output = await continueChat(ports, {
            state,
            sessionId,
            bot: bots.get(state.botsQueue[0].botId)!,
            message: toInputAnswer(turn.send),
          })
          check(assert, output, turn.expect, resultId, `turn ${index + 2}`)
        }
      })
    }
  }
})
