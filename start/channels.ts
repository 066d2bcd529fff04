/*
| Messaging channels: the job answering the files a contact sends at once
| (docs/channels.md, "Several files at once").
*/
import { registerJobModules } from '#queue/queue'

registerJobModules([() => import('#services/channels/jobs')])
