import { sendJson, startStandIn, type StandInExchange } from './stand_in_server.js'

export interface GithubStandInUser {
  id: number
  login: string
  name: string | null
  email: string | null
  emails?: { email: string; primary: boolean; verified: boolean }[]
}

interface GithubRequest {
  path: string
  body: string
  authorization?: string
}

/**
 * A local stand-in for GitHub's OAuth web flow and REST API (the parts ally uses):
 * POST /login/oauth/access_token, GET /api/user, GET /api/user/emails. It checks the
 * client credentials and the code the app sends, as GitHub does.
 */
export async function startGithubStandIn(port: number, clientId: string, clientSecret: string) {
  const codes = new Map<string, GithubStandInUser>()
  const tokens = new Map<string, GithubStandInUser>()

  const standIn = await startStandIn(
    ({ req, res, url, text: body }) => {
      const send = (status: number, data: unknown) => sendJson(res, status, data)
      if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const params = new URLSearchParams(body)
        const jsonBody = body.startsWith('{') ? JSON.parse(body) : null
        const get = (k: string) => params.get(k) ?? jsonBody?.[k]
        if (get('client_id') !== clientId || get('client_secret') !== clientSecret) {
          return send(200, { error: 'incorrect_client_credentials' })
        }
        const user = codes.get(get('code'))
        if (!user) return send(200, { error: 'bad_verification_code' })
        codes.delete(get('code'))
        const token = `gho_${Math.random().toString(36).slice(2)}`
        tokens.set(token, user)
        return send(200, { access_token: token, token_type: 'bearer', scope: 'user:email' })
      }
      const token = (req.headers.authorization ?? '').replace(/^(token|Bearer) /i, '')
      const user = tokens.get(token)
      if (url.pathname === '/api/user') {
        if (!user) return send(401, { message: 'Bad credentials' })
        return send(200, {
          id: user.id,
          login: user.login,
          name: user.name,
          email: user.email,
          avatar_url: null,
        })
      }
      if (url.pathname === '/api/user/emails') {
        if (!user) return send(401, { message: 'Bad credentials' })
        return send(200, user.emails ?? [])
      }
      send(404, { message: 'Not Found' })
    },
    {
      port,
      record: ({ req, url, text }: StandInExchange): GithubRequest => ({
        path: url.pathname,
        body: text,
        authorization: req.headers.authorization,
      }),
    }
  )

  return {
    requests: standIn.requests,
    /** What GitHub would do after the person approves: a one-time code for this user. */
    approve(user: GithubStandInUser) {
      const code = `code_${Math.random().toString(36).slice(2)}`
      codes.set(code, user)
      return code
    },
    close: standIn.close,
  }
}
