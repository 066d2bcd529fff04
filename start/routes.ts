/*
| Routes, one file per area under start/routes/.
*/
import './routes/auth.js'
import './routes/app.js'
import './routes/api.js'
import './routes/system.js'
import './routes/workflows.js'
import './routes/chat.js'
import './routes/results.js'
import './routes/bot_editor.js'
import './routes/workflow_runs.js'
import './routes/bot_templates.js'
import './routes/typebot_api.js'
import './routes/copilot.js'
import './routes/coedit.js'
