import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'

/*
| The app in a process of its own (bin/server.ts), for what the test process cannot show:
| the test server keeps sessions in memory (the test client signs in through that store),
| while a real install keeps them in signed cookies, which a copy can replay.
*/

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/**
 * Stops a detached child and its group: SIGTERM, then SIGKILL after 10 s. Its graceful
 * shutdown may wait on the SQLite file the test process itself holds, so the test never
 * waits on it for ever.
 */
export async function stopProcessGroup(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  process.kill(-child.pid!, 'SIGTERM')
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {}
  }, 10_000)
  await exited
  clearTimeout(timer)
}

export interface AppProcess {
  url: string
  stop(): Promise<void>
}

/** Starts the app with the test environment plus `env`, and waits for /health. */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    ['--no-node-snapshot', '--import=ts-node-maintained/register/esm', 'bin/server.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }
  )
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const stop = () => stopProcessGroup(child)
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited: ${output}`)
    try {
      if ((await fetch(`${url}/health`)).status < 500) return { url, stop }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await stop()
  throw new Error(`the app did not start: ${output}`)
}

/** A browser's cookies for one host: what Set-Cookie sets, sent back on each request. */
export class CookieJar {
  cookies = new Map<string, string>()

  constructor(private base: string) {}

  copy() {
    const jar = new CookieJar(this.base)
    jar.cookies = new Map(this.cookies)
    return jar
  }

  async fetch(path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers)
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    }
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (xsrf && init.method && init.method !== 'GET') {
      headers.set('x-xsrf-token', decodeURIComponent(xsrf))
    }
    const response = await fetch(this.base + path, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const at = pair.indexOf('=')
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      const expired = attributes.some((a) => {
        const [key, v] = a.trim().split('=')
        if (key.toLowerCase() === 'max-age') return Number(v) <= 0
        if (key.toLowerCase() === 'expires') return new Date(v).getTime() <= Date.now()
        return false
      })
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }
}
