/*
| Environment variables are validated here at boot, so that a wrong value stops the
| process with a message that names the variable instead of failing later.
| Every variable is documented in .env.example and in the README.
*/
import { Env } from '@adonisjs/core/env'
import { trustedProxies } from '#services/trusted_proxies'
import { parseHostList } from '#plugins/guarded_http'

function oneOf<T extends string>(allowed: readonly T[], fallback: T) {
  return (name: string, value?: string): T => {
    if (value === undefined || value === '') return fallback
    if (!allowed.includes(value as T)) {
      throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`)
    }
    return value as T
  }
}

function optionalOneOf<T extends string>(allowed: readonly T[]) {
  return (name: string, value?: string): T | undefined =>
    value === undefined || value === '' ? undefined : oneOf(allowed, allowed[0])(name, value)
}

function bool(fallback: boolean) {
  return (name: string, value?: string): boolean => {
    if (value === undefined || value === '') return fallback
    if (['true', '1', 'yes'].includes(value)) return true
    if (['false', '0', 'no'].includes(value)) return false
    throw new Error(`${name} must be true or false (got "${value}")`)
  }
}

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number(),
  HOST: Env.schema.string({ format: 'host' }),
  APP_URL: Env.schema.string.optional(),
  // Public bot pages, /embed.js and the chat API on their own host (docs/security.md).
  VIEWER_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  // DNS servers (comma separated, ip[:port]) that custom domain checks ask; the system's by default.
  DNS_SERVERS: Env.schema.string.optional(),
  // Plugin packages to load besides those package.json depends on (comma separated): config/plugins.ts.
  PLUGIN_PACKAGES: Env.schema.string.optional(),
  // The brain service behind Text to Video and Zemantic AI.
  BRAIN_SERVICE_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  // Where the editors' graph menu and the Help menu send builders; the app's /docs by default.
  DOCS_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  APP_KEY: Env.schema.string(),
  LOG_LEVEL: Env.schema.enum.optional([
    'fatal',
    'error',
    'warn',
    'info',
    'debug',
    'trace',
  ] as const),

  ENCRYPTION_SECRET: (name: string, value?: string) => {
    if (!value || value.length !== 32) {
      throw new Error(
        `${name} must be exactly 32 characters long (got ${value ? value.length : 0}). ` +
          "Generate one with: node -e \"console.log(require('crypto').randomBytes(16).toString('hex'))\""
      )
    }
    return value
  },

  SESSION_DRIVER: Env.schema.enum.optional(['cookie', 'memory'] as const),

  DB_CONNECTION: oneOf(['sqlite', 'pg', 'mysql'] as const, 'sqlite'),
  DATABASE_URL: (name: string, value?: string) => {
    if (!value) return undefined
    if (!/^(postgres|postgresql|mysql):\/\//.test(value)) {
      throw new Error(`${name} must be a postgres:// or mysql:// URL`)
    }
    return value
  },
  SQLITE_PATH: Env.schema.string.optional(),
  DB_POOL_MAX: Env.schema.number.optional(),
  DB_POOL_IDLE_SECONDS: Env.schema.number.optional(),
  // Web processes (bin/server.ts); more than 1 needs pg/mysql and QUEUE_DRIVER=bullmq.
  WEB_CONCURRENCY: Env.schema.number.optional(),

  REDIS_URL: Env.schema.string.optional(),
  QUEUE_DRIVER: oneOf(['in-process', 'bullmq'] as const, 'in-process'),
  QUEUE_PREFIX: Env.schema.string.optional(),

  SMTP_HOST: Env.schema.string.optional(),
  SMTP_PORT: Env.schema.number.optional(),
  SMTP_USERNAME: Env.schema.string.optional(),
  SMTP_PASSWORD: Env.schema.string.optional(),
  SMTP_SECURE: bool(false),
  MAIL_FROM: Env.schema.string.optional(),

  // How many users one Slack node may message in a run (10 by default).
  SLACK_USER_LIMIT: (name: string, value?: string) => {
    if (value === undefined || value === '') return undefined
    const limit = Number(value)
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error(`${name} must be a positive integer (got "${value}")`)
    }
    return limit
  },

  // The most iterations of one loop, and of all loops of a chat turn or a workflow run
  // (10,000 by default): nothing loops forever (docs/plugins.md, "Loops").
  LOOP_MAX_ITERATIONS: (name: string, value?: string) => {
    if (value === undefined || value === '') return undefined
    const limit = Number(value)
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error(`${name} must be a positive integer (got "${value}")`)
    }
    return limit
  },

  DISABLE_SIGNUP: bool(false),
  ADMIN_EMAILS: Env.schema.string.optional(),
  // Empty: UNLIMITED without billing, FREE with it (app/services/plans.ts, defaultPlanName).
  DEFAULT_WORKSPACE_PLAN: optionalOneOf([
    'FREE',
    'BASIC',
    'STANDARD',
    'ENTERPRIZE',
    'UNLIMITED',
  ] as const),
  // Stripe billing: its secret key turns billing on (and the FREE default plan with it).
  STRIPE_SECRET_KEY: Env.schema.string.optional(),
  // Signs the webhook events (POST /api/stripe/webhook); billing stays off without it.
  STRIPE_WEBHOOK_SECRET: Env.schema.string.optional(),
  // Stripe price ids per plan and period; a plan is for sale once one of its prices is set.
  STRIPE_PRICE_BASIC_MONTHLY: Env.schema.string.optional(),
  STRIPE_PRICE_BASIC_YEARLY: Env.schema.string.optional(),
  STRIPE_PRICE_STANDARD_MONTHLY: Env.schema.string.optional(),
  STRIPE_PRICE_STANDARD_YEARLY: Env.schema.string.optional(),
  STRIPE_PRICE_ENTERPRIZE_MONTHLY: Env.schema.string.optional(),
  STRIPE_PRICE_ENTERPRIZE_YEARLY: Env.schema.string.optional(),
  // Another Stripe API base URL (stripe-mock, the tests' stand-in); empty: api.stripe.com.
  STRIPE_API_URL: Env.schema.string.optional({ format: 'url', tld: false }),

  // The support chat bubble on paid plans (docs/onboarding.md): a published bot of this
  // instance, and the bot-viewer host it loads from (VIEWER_URL, else this host, by default).
  SUPPORT_BOT_PUBLIC_ID: Env.schema.string.optional(),
  SUPPORT_VIEWER_URL: Env.schema.string.optional({ format: 'url', tld: false }),

  GITHUB_CLIENT_ID: Env.schema.string.optional(),
  GITHUB_CLIENT_SECRET: Env.schema.string.optional(),
  GITHUB_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  GITHUB_API_URL: Env.schema.string.optional({ format: 'url', tld: false }),
  GOOGLE_CLIENT_ID: Env.schema.string.optional(),
  GOOGLE_CLIENT_SECRET: Env.schema.string.optional(),

  STORAGE_PATH: Env.schema.string.optional(),
  S3_ENDPOINT: Env.schema.string.optional(),
  S3_ACCESS_KEY: Env.schema.string.optional(),
  S3_SECRET_KEY: Env.schema.string.optional(),
  S3_BUCKET: Env.schema.string.optional(),
  S3_REGION: Env.schema.string.optional(),

  // Product analytics (docs/analytics.md): the server log, a PostHog-compatible collector, or off.
  ANALYTICS_SINK: Env.schema.enum.optional(['log', 'posthog', 'off'] as const),
  POSTHOG_HOST: Env.schema.string.optional({ format: 'url', tld: false }),
  POSTHOG_API_KEY: Env.schema.string.optional(),
  ALLOW_INTERNAL_HTTP: bool(false),
  // Internal hosts that integrations using a credential may reach (docs/self_hosting_ai.md).
  CREDENTIAL_INTERNAL_HOSTS: (name: string, value?: string) => {
    try {
      parseHostList(value)
    } catch (error) {
      throw new Error(`${name}: ${(error as Error).message}`)
    }
    return value || undefined
  },
  // How long a channel contact's files are held to arrive together (docs/channels.md).
  CHANNEL_FILES_WINDOW_MS: Env.schema.number.optional(),
  // Sandbox for user code, per process (docs/sandbox.md).
  SANDBOX_POOL_SIZE: Env.schema.number.optional(),
  SANDBOX_WORKSPACE_CONCURRENCY: Env.schema.number.optional(),
  SANDBOX_WORKSPACE_QUEUE: Env.schema.number.optional(),
  SIGNIN_RATE_LIMIT: Env.schema.number.optional(),
  SIGNIN_IP_RATE_LIMIT: Env.schema.number.optional(),
  TWO_FACTOR_RATE_LIMIT: Env.schema.number.optional(),
  TRUSTED_PROXIES: (_name: string, value?: string) => {
    // Parsed here too, so that a wrong entry stops the boot with the variable's name.
    if (value) trustedProxies(value)
    return value || undefined
  },
})
