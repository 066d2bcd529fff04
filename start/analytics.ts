/*
| Product analytics leave in batches (app/services/analytics/analytics.ts): what still waits
| when the process stops is sent before it exits.
*/
import app from '@adonisjs/core/services/app'
import { flushAnalytics } from '#services/analytics/analytics'

app.terminating(() => flushAnalytics())
