import { createPublicKey, createVerify, randomBytes, type KeyObject } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { sendJson, startStandIn, recordText, type TextStandInRequest } from './stand_in_server.js'

/**
 * A local stand-in for Google as the Google plugins use it, on one port:
 * - GET /o/oauth2/v2/auth: the consent page; it grants at once (302 to redirect_uri with a
 *   code and the state), or answers error=access_denied when `deny` is set.
 * - POST /token (form): authorization_code (the code it issued, the client, the redirect URI),
 *   refresh_token (the refresh tokens it issued) and urn:ietf:params:oauth:grant-type:jwt-bearer
 *   (an RS256 JWT whose signature checks with a registered service account's public key, aud =
 *   this token URL). Access tokens last `tokenLifetimeSeconds`; `expireAll()` ends them now.
 * - Sheets v4: GET /v4/spreadsheets/{id}, GET|PUT /v4/spreadsheets/{id}/values/{range},
 *   POST .../values/{range}:append and :clear, POST /v4/spreadsheets/{id}:batchUpdate
 *   (insertDimension of rows). Ranges: `Title`, `Title!A5`, `Title!A2:Z`.
 * - Calendar v3: GET|POST /calendar/v3/calendars/{id}/events (maxResults, q, timeMin, timeMax),
 *   GET|PATCH|PUT|DELETE /calendar/v3/calendars/{id}/events/{eventId}.
 * - Firestore v1: POST .../documents/{collection} (create), GET|PATCH|DELETE
 *   .../documents/{collection}/{id} (updateMask.fieldPaths), POST .../documents:runQuery (from,
 *   where: fieldFilter EQUAL or compositeFilter AND of them, limit).
 * Every API call needs `Authorization: Bearer` with a live token it issued, else 401.
 */

export interface SheetTab {
  sheetId: number
  title: string
  values: string[][]
}

export interface FirestoreDoc {
  name: string
  fields: Record<string, any>
  createTime: string
  updateTime: string
}

export async function startGoogleStandIn(
  options: {
    clientId?: string
    clientSecret?: string
    tokenLifetimeSeconds?: number
  } = {}
) {
  const clientId = options.clientId ?? 'google-client'
  const clientSecret = options.clientSecret ?? 'google-secret'
  const codes = new Map<string, { redirectUri: string; scope: string }>()
  const accessTokens = new Map<string, number>()
  const refreshTokens = new Set<string>()
  const serviceKeys = new Map<string, KeyObject>()
  const spreadsheets = new Map<string, SheetTab[]>()
  const calendars = new Map<string, any[]>()
  const firestore = new Map<string, FirestoreDoc>()
  const stats = { refreshes: 0, jwtGrants: 0, codeGrants: 0 }
  const state = { deny: false, lifetime: options.tokenLifetimeSeconds ?? 3600 }
  let counter = 0
  const next = () => `${Date.now().toString(36)}${(++counter).toString(36)}`

  function issue() {
    const token = `ya29.${randomBytes(12).toString('hex')}`
    accessTokens.set(token, Date.now() + state.lifetime * 1000)
    return token
  }

  function apiError(res: ServerResponse, status: number, message: string, code = 'FAILED') {
    sendJson(res, status, { error: { code: status, message, status: code } })
  }

  function authorized(headers: TextStandInRequest['headers']) {
    const token = String(headers.authorization ?? '').replace(/^Bearer /, '')
    const expires = accessTokens.get(token)
    return expires !== undefined && expires > Date.now()
  }

  const service = await startStandIn<TextStandInRequest>(
    ({ req, res, url, text, recorded }) => {
      const method = req.method ?? 'GET'
      const path = decodeURIComponent(url.pathname)

      if (path === '/o/oauth2/v2/auth') {
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '')
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '')
        if (state.deny || url.searchParams.get('client_id') !== clientId) {
          redirect.searchParams.set('error', 'access_denied')
        } else {
          const code = `code-${next()}`
          codes.set(code, {
            redirectUri: url.searchParams.get('redirect_uri') ?? '',
            scope: url.searchParams.get('scope') ?? '',
          })
          redirect.searchParams.set('code', code)
        }
        res.writeHead(302, { location: redirect.toString() })
        return res.end()
      }

      if (path === '/token' && method === 'POST') {
        const form = new URLSearchParams(text)
        const grant = form.get('grant_type')
        if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          const [header, claims, signature] = (form.get('assertion') ?? '').split('.')
          let payload: any
          try {
            payload = JSON.parse(Buffer.from(claims, 'base64url').toString())
          } catch {
            return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad JWT' })
          }
          const key = serviceKeys.get(payload.iss)
          const valid =
            key &&
            JSON.parse(Buffer.from(header, 'base64url').toString()).alg === 'RS256' &&
            createVerify('RSA-SHA256')
              .update(`${header}.${claims}`)
              .verify(key, Buffer.from(signature, 'base64url'))
          if (!valid) {
            return sendJson(res, 400, {
              error: 'invalid_grant',
              error_description: 'Invalid JWT Signature.',
            })
          }
          if (payload.aud !== `${service.baseUrl}/token` || payload.exp <= Date.now() / 1000) {
            return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad claims' })
          }
          stats.jwtGrants++
          return sendJson(res, 200, {
            access_token: issue(),
            expires_in: state.lifetime,
            token_type: 'Bearer',
          })
        }
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
          return sendJson(res, 401, {
            error: 'invalid_client',
            error_description: 'The OAuth client was not found.',
          })
        }
        if (grant === 'authorization_code') {
          const pending = codes.get(form.get('code') ?? '')
          codes.delete(form.get('code') ?? '')
          if (!pending || pending.redirectUri !== form.get('redirect_uri')) {
            return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' })
          }
          stats.codeGrants++
          const refresh = `1//refresh-${next()}`
          refreshTokens.add(refresh)
          return sendJson(res, 200, {
            access_token: issue(),
            refresh_token: refresh,
            expires_in: state.lifetime,
            scope: pending.scope,
            token_type: 'Bearer',
          })
        }
        if (grant === 'refresh_token' && refreshTokens.has(form.get('refresh_token') ?? '')) {
          stats.refreshes++
          return sendJson(res, 200, {
            access_token: issue(),
            expires_in: state.lifetime,
            token_type: 'Bearer',
          })
        }
        return sendJson(res, 400, {
          error: 'invalid_grant',
          error_description: 'Token has been expired or revoked.',
        })
      }

      if (!authorized(recorded.headers)) {
        return apiError(
          res,
          401,
          'Request had invalid authentication credentials.',
          'UNAUTHENTICATED'
        )
      }
      const body = text ? JSON.parse(text) : undefined

      let match = path.match(/^\/v4\/spreadsheets\/([^/:]+)(?::batchUpdate)?$/)
      if (match) return sheetsMeta(res, method, match[1], path.endsWith(':batchUpdate'), body)
      match = path.match(/^\/v4\/spreadsheets\/([^/]+)\/values\/(.+?)(?::(append|clear))?$/)
      if (match) return sheetsValues(res, method, match[1], match[2], match[3], body, url)
      match = path.match(/^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/)
      if (match) return calendar(res, method, match[1], match[2], body, url)
      match = path.match(/^\/v1\/projects\/([^/]+)\/databases\/\(default\)\/documents(.*)$/)
      if (match) return documents(res, method, match[1], match[2], body, url)
      return apiError(res, 404, `No stand-in for ${method} ${path}`, 'NOT_FOUND')
    },
    { record: recordText }
  )

  /* ---- Sheets */

  function tabOf(res: ServerResponse, id: string, range: string) {
    const tabs = spreadsheets.get(id)
    if (!tabs) return void apiError(res, 404, 'Requested entity was not found.', 'NOT_FOUND')
    const [rawTitle, cells] = range.split('!')
    const title = rawTitle.replace(/^'(.*)'$/, '$1').replace(/''/g, "'")
    const tab = tabs.find((candidate) => candidate.title === title)
    if (!tab) return void apiError(res, 400, `Unable to parse range: ${range}`, 'INVALID_ARGUMENT')
    const start = cells ? Number(cells.match(/^[A-Z]+(\d+)/)?.[1] ?? 1) : 1
    return { tab, startRow: start }
  }

  function sheetsMeta(res: ServerResponse, method: string, id: string, batch: boolean, body: any) {
    const tabs = spreadsheets.get(id)
    if (!tabs) return apiError(res, 404, 'Requested entity was not found.', 'NOT_FOUND')
    if (!batch) {
      return sendJson(res, 200, {
        spreadsheetId: id,
        sheets: tabs.map((tab, index) => ({
          properties: { sheetId: tab.sheetId, title: tab.title, index },
        })),
      })
    }
    for (const request of body?.requests ?? []) {
      const insert = request.insertDimension
      if (!insert || insert.range.dimension !== 'ROWS') {
        return apiError(res, 400, 'Unsupported request', 'INVALID_ARGUMENT')
      }
      const tab = tabs.find((candidate) => candidate.sheetId === insert.range.sheetId)
      if (!tab) return apiError(res, 400, 'No grid with id', 'INVALID_ARGUMENT')
      const count = insert.range.endIndex - insert.range.startIndex
      tab.values.splice(insert.range.startIndex, 0, ...Array.from({ length: count }, () => []))
    }
    void method
    return sendJson(res, 200, { spreadsheetId: id, replies: [{}] })
  }

  function sheetsValues(
    res: ServerResponse,
    method: string,
    id: string,
    range: string,
    verb: string | undefined,
    body: any,
    url: URL
  ) {
    const found = tabOf(res, id, range)
    if (!found) return
    const { tab, startRow } = found
    if (method === 'GET') {
      const values = tab.values.slice(startRow - 1)
      while (values.length && values[values.length - 1].every((cell) => cell === '')) values.pop()
      return sendJson(res, 200, { range, majorDimension: 'ROWS', values })
    }
    if (!url.searchParams.get('valueInputOption') && verb !== 'clear') {
      return apiError(
        res,
        400,
        "'valueInputOption' is required but not specified",
        'INVALID_ARGUMENT'
      )
    }
    if (verb === 'clear') {
      tab.values.splice(startRow - 1)
      return sendJson(res, 200, { spreadsheetId: id, clearedRange: range })
    }
    const rows: string[][] = (body?.values ?? []).map((row: unknown[]) =>
      row.map((c) => String(c ?? ''))
    )
    if (verb === 'append') {
      const at = tab.values.length + 1
      tab.values.push(...rows)
      return sendJson(res, 200, {
        spreadsheetId: id,
        updates: { updatedRange: `${tab.title}!A${at}`, updatedRows: rows.length },
      })
    }
    rows.forEach((row, index) => {
      while (tab.values.length < startRow - 1 + index) tab.values.push([])
      tab.values[startRow - 1 + index] = row
    })
    return sendJson(res, 200, { spreadsheetId: id, updatedRange: range, updatedRows: rows.length })
  }

  /* ---- Calendar */

  function calendar(
    res: ServerResponse,
    method: string,
    calendarId: string,
    eventId: string | undefined,
    body: any,
    url: URL
  ) {
    const events = calendars.get(calendarId)
    if (!events) return apiError(res, 404, 'Not Found', 'NOT_FOUND')
    if (!eventId && method === 'GET') {
      const max = Number(url.searchParams.get('maxResults') ?? 250)
      if (max > 2500 || max < 1) return apiError(res, 400, 'Invalid maxResults', 'INVALID_ARGUMENT')
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      const timeMin = url.searchParams.get('timeMin')
      const items = events
        .filter(
          (e) =>
            !q ||
            String(e.summary ?? '')
              .toLowerCase()
              .includes(q)
        )
        .filter((e) => !timeMin || String(e.end?.dateTime ?? e.end?.date) > timeMin)
        .slice(0, max)
      return sendJson(res, 200, { kind: 'calendar#events', items })
    }
    if (!eventId && method === 'POST') {
      if (!body?.start || !body?.end)
        return apiError(res, 400, 'Missing end time.', 'INVALID_ARGUMENT')
      const bad = (body.attendees ?? []).find((a: any) => !/^[^@\s]+@[^@\s]+$/.test(a.email ?? ''))
      if (bad) return apiError(res, 400, 'Invalid attendee email.', 'INVALID_ARGUMENT')
      const event = {
        kind: 'calendar#event',
        id: `ev${next()}`,
        status: 'confirmed',
        htmlLink: `https://calendar.example/${calendarId}`,
        ...body,
      }
      events.push(event)
      return sendJson(res, 200, event)
    }
    const index = events.findIndex((e) => e.id === eventId)
    if (index === -1) return apiError(res, 404, 'Not Found', 'NOT_FOUND')
    if (method === 'GET') return sendJson(res, 200, events[index])
    if (method === 'DELETE') {
      events.splice(index, 1)
      res.writeHead(204)
      return res.end()
    }
    events[index] = method === 'PUT' ? { ...body, id: eventId } : { ...events[index], ...body }
    return sendJson(res, 200, events[index])
  }

  /* ---- Firestore */

  function valueEquals(a: any, b: any) {
    const plain = (v: any) => {
      if (!v) return v
      if ('integerValue' in v) return Number(v.integerValue)
      if ('doubleValue' in v) return Number(v.doubleValue)
      return JSON.stringify(v)
    }
    return plain(a) === plain(b)
  }

  function documents(
    res: ServerResponse,
    method: string,
    project: string,
    rest: string,
    body: any,
    url: URL
  ) {
    const root = `projects/${project}/databases/(default)/documents`
    if (rest === ':runQuery' && method === 'POST') {
      const query = body?.structuredQuery
      const collection = query?.from?.[0]?.collectionId
      const where = query?.where
      const filters = where?.compositeFilter
        ? where.compositeFilter.filters.map((f: any) => f.fieldFilter)
        : where?.fieldFilter
          ? [where.fieldFilter]
          : []
      if (filters.some((f: any) => f?.op !== 'EQUAL')) {
        return apiError(res, 400, 'Only EQUAL filters in the stand-in', 'INVALID_ARGUMENT')
      }
      const docs = [...firestore.values()]
        .filter((doc) => doc.name.startsWith(`${root}/${collection}/`))
        .filter((doc) =>
          filters.every((f: any) => valueEquals(doc.fields[f.field.fieldPath], f.value))
        )
        .slice(0, query?.limit ?? undefined)
      const readTime = new Date().toISOString()
      return sendJson(
        res,
        200,
        docs.length ? docs.map((document) => ({ document, readTime })) : [{ readTime }]
      )
    }
    const parts = rest.replace(/^\//, '').split('/')
    if (parts.length === 1 && method === 'POST') {
      const id = url.searchParams.get('documentId') || `d${next()}`
      const now = new Date().toISOString()
      const doc = {
        name: `${root}/${parts[0]}/${id}`,
        fields: body?.fields ?? {},
        createTime: now,
        updateTime: now,
      }
      firestore.set(doc.name, doc)
      return sendJson(res, 200, doc)
    }
    if (parts.length === 2) {
      const name = `${root}/${parts[0]}/${parts[1]}`
      const doc = firestore.get(name)
      if (method === 'DELETE') {
        firestore.delete(name)
        return sendJson(res, 200, {})
      }
      if (!doc) return apiError(res, 404, `No document to update: ${name}`, 'NOT_FOUND')
      if (method === 'GET') return sendJson(res, 200, doc)
      if (method === 'PATCH') {
        const mask = url.searchParams.getAll('updateMask.fieldPaths')
        for (const path of mask.length ? mask : Object.keys(body?.fields ?? {})) {
          if (body?.fields && path in body.fields) doc.fields[path] = body.fields[path]
          else delete doc.fields[path]
        }
        doc.updateTime = new Date().toISOString()
        return sendJson(res, 200, doc)
      }
    }
    return apiError(res, 404, 'Not found', 'NOT_FOUND')
  }

  return {
    ...service,
    clientId,
    clientSecret,
    authorizeUrl: `${service.baseUrl}/o/oauth2/v2/auth`,
    tokenUrl: `${service.baseUrl}/token`,
    stats,
    state,
    spreadsheets,
    calendars,
    firestore,
    /** Tokens issued from now on, and those live, end now. */
    expireAll() {
      for (const token of accessTokens.keys()) accessTokens.set(token, 0)
    },
    /** A live access token and a refresh token, as if Connect had gone through. */
    connect() {
      const refresh = `1//refresh-${next()}`
      refreshTokens.add(refresh)
      return { accessToken: issue(), refreshToken: refresh }
    },
    /** A service account whose JWTs this token endpoint accepts. */
    addServiceAccount(clientEmail: string, publicKeyPem: string) {
      serviceKeys.set(clientEmail, createPublicKey(publicKeyPem))
    },
    firestoreRoot(project: string) {
      return `projects/${project}/databases/(default)/documents`
    },
  }
}

export type GoogleStandIn = Awaited<ReturnType<typeof startGoogleStandIn>>
