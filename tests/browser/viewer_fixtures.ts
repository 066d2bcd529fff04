import type { ApiClient } from '@japa/api-client'
import type { Page } from 'playwright'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import app from '@adonisjs/core/services/app'
import Bot from '#models/bot'
import { CreateApiToken } from '#actions/api_tokens/create_api_token'
import { overrideViewerUrl } from '#services/public_surface'
import { createUser, firstWorkspaceOf, setUserPlan } from '#tests/helpers'
import { chatFixture } from '#tests/unit/engine/fixtures'

export interface Owner {
  token: string
  workspaceId: string
}

let owner: Owner

async function createOwner(): Promise<Owner> {
  const user = await createUser()
  await setUserPlan(user, 'UNLIMITED')
  const workspace = await firstWorkspaceOf(user)
  const token = (await new CreateApiToken().handle(user, `viewer-${Date.now()}`)).value
  return { token, workspaceId: workspace.id }
}

/** Imports a fixture bot under a fresh id (overrides merged on top) and publishes it. */
export function publishFixture(
  client: ApiClient,
  name: string,
  overrides: Record<string, unknown> = {}
) {
  // A fresh id and public id: several tests publish the same fixture.
  const bot = { ...chatFixture(name).bot }
  delete bot.id
  delete bot.publicId
  return publishBot(client, { ...bot, ...overrides })
}

export async function publishBot(client: ApiClient, bot: Record<string, unknown>) {
  const imported = await client
    .post('/api/v1/bots')
    .bearerToken(owner.token)
    .json({ workspaceId: owner.workspaceId, bot })
  if (imported.status() !== 201) throw new Error(JSON.stringify(imported.body()))
  const id = imported.body().bot.id as string
  const published = await client.post(`/api/v1/bots/${id}/publish`).bearerToken(owner.token)
  published.assertStatus(200)
  const saved = await Bot.findOrFail(id)
  return { id, publicId: saved.publicId! }
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: app.makePath(`tmp/screenshots/viewer-${name}.png`) })
}

/** The typing emulation is covered once; the other tests run without its delays. */
export async function withoutTyping(page: Page) {
  await page.emulateMedia({ reducedMotion: 'reduce' })
}

/**
 * The address of `path` on a viewer host (VIEWER_URL) for the rest of the test. What needs
 * the page's own origin (stored results, the browser's location) works there; on the
 * app's host the page is an opaque origin (docs/security.md). Same server, another name.
 */
export function onViewerHost(path: string, cleanup: (fn: () => void) => void) {
  const viewer = `http://localhost:${process.env.PORT}`
  cleanup(overrideViewerUrl(viewer))
  return `${viewer}${path}`
}

/**
 * Shows `html` as a page of another site: a stand-in server on another port (a loopback
 * address, which the browser lets reach the app). The app's own pages would refuse its
 * inline scripts: their CSP allows only the ones the app wrote.
 */
export async function showOnAnotherSite(
  page: Page,
  html: string,
  cleanup: (fn: () => void) => void
) {
  const site = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
    response.end(html)
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  cleanup(() => site.close())
  await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`)
}

export const guest = (page: Page) => page.locator('.fc-guest-bubble')
export const host = (page: Page) => page.locator('.fc-host-bubble')

/** A new bot owner for the tests that follow (a group's setup): the bots above are theirs. */
export async function useNewOwner() {
  owner = await createOwner()
}
