import { createHash } from 'node:crypto'
import { MongoClient } from 'mongodb'
import { checkDatabaseHost, databaseHostLookup, IdleCache, internalHostsAllowed } from '#sdk/data'

/** Each command stops after this long (maxTimeMS on the server, timeouts on the client). */
export const MONGODB_TIMEOUT_MS = 10_000
/** Connections one credential's client may hold at once. */
export const MONGODB_POOL_MAX = 5

interface Client {
  client: MongoClient
  /** The database of the connection URL (used when a block names none). */
  defaultDatabase: string
  /** Connections this client has opened (the pooling test reads it). */
  opened: number
}

const clients = new IdleCache<Client>(({ client }) => client.close())

/**
 * The client of a credential: made on first use, shared by every chat and run of the process
 * (its pool holds at most MONGODB_POOL_MAX connections, idle ones closed after 30 s), closed
 * after a while unused. Hosts follow the HTTP block's internal-address rule twice: the URL's
 * hosts before connecting (IP literals included), then every name the driver connects to
 * (SRV targets, replica-set members) through a checking DNS lookup.
 */
export function mongoClient(url: string): Promise<Client> {
  const key = createHash('sha256')
    .update(JSON.stringify([url.trim(), internalHostsAllowed()]))
    .digest('hex')
  return clients.use(key, () => connect(url.trim()))
}

async function connect(url: string): Promise<Client> {
  const { hosts, database, srv } = partsOf(url)
  // An SRV name has no address of its own: its targets go through the lookup below.
  if (!srv) for (const host of hosts) await checkDatabaseHost(host)
  const lookup = databaseHostLookup()
  const entry = { opened: 0 } as Client
  entry.defaultDatabase = database
  entry.client = new MongoClient(url, {
    maxPoolSize: MONGODB_POOL_MAX,
    maxIdleTimeMS: 30_000,
    serverSelectionTimeoutMS: MONGODB_TIMEOUT_MS,
    connectTimeoutMS: MONGODB_TIMEOUT_MS,
    // Operations carry maxTimeMS (the server stops them); this ends a silent socket.
    socketTimeoutMS: MONGODB_TIMEOUT_MS * 2,
    waitQueueTimeoutMS: MONGODB_TIMEOUT_MS,
    appName: 'flowcraft',
    ...(lookup ? { lookup: lookup as any } : {}),
  })
  entry.client.on('connectionCreated', () => (entry.opened += 1))
  await entry.client.connect()
  return entry
}

/**
 * The hosts and the database of a connection URL. The driver parses it again; this reads
 * only what the host rule and the default database need.
 */
export function partsOf(url: string) {
  const match = /^mongodb(\+srv)?:\/\/(?:[^@/]*@)?([^/?]+)(?:\/([^?]*))?/.exec(url)
  if (!match) {
    throw new Error('The MongoDB connection URL must start with mongodb:// or mongodb+srv://')
  }
  const hosts = match[2]
    .split(',')
    .map((host) =>
      host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '')
    )
  return { hosts, database: decodeURIComponent(match[3] ?? ''), srv: Boolean(match[1]) }
}

/** How many connections the client of this URL has opened (tests). */
export async function mongoConnectionsOpened(url: string) {
  return (await mongoClient(url)).opened
}

/** Closes every client (tests). */
export function closeMongoClients() {
  return clients.closeAll()
}
